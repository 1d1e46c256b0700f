import type { Provider } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { TurnJobData } from '@switchboard/queue';
import { RetireAnsweredJobs } from '../../apps/worker/src/turns/retire-answered-jobs';

/**
 * RetireAnsweredJobs for suites that drive DrainSession directly, with no turns queue: no message
 * has a job, and BullMQ's remove answers 1 for a job it does not hold, as this stand-in does.
 */
export function retireWithoutQueue(): Provider {
  return { provide: RetireAnsweredJobs, useValue: new RetireAnsweredJobs({ remove: async () => 1 } as unknown as Queue<TurnJobData>) };
}
