import type { Job, Queue } from 'bullmq';
import type { TurnJobData } from '@switchboard/queue';
import { STALL_RESWEEPS, SWEEP_JOB_OPTIONS } from '../config/worker-settings';

/** The job id the sweeper uses for a message whose own job is gone or finished. */
export function sweepJobId(messageId: string): string {
  return `sweep-${messageId}`;
}

/** BullMQ's failure reason (Redis and Postgres backends) for a job found stalled more than maxStalledCount times. */
const STALLED_OUT = 'job stalled more than allowable limit';

/** True when the job failed because the workers running it kept dying, not because of an error of its own. */
export function stalledOut(job: Pick<Job, 'failedReason'>): boolean {
  return job.failedReason === STALLED_OUT;
}

/** Adds the sweeper's job for a message, replacing a finished one of the same id (BullMQ would keep the old one). */
export async function addSweepJob(queue: Queue<TurnJobData>, data: TurnJobData & { messageId: string }): Promise<void> {
  await queue.remove(sweepJobId(data.messageId)).catch(() => undefined);
  await queue.add('turn', data, { jobId: sweepJobId(data.messageId), ...SWEEP_JOB_OPTIONS });
}

/**
 * A turn job that stalled out (its message was in flight in maxStalledCount + 1 workers that
 * died: SIGKILLs, OOM, a lost node) gets a fresh sweep job at once, up to STALL_RESWEEPS times.
 * Crashes are the platform's fault, not the message's: without this one unlucky message in a
 * crash-looping deployment stayed queued — a customer left in silence — until someone redrove
 * it (the chaos run's lost messages). Past the limit the message kills every worker that runs
 * it: its job stays failed, a dead letter for an operator. True when a fresh job was added.
 */
export async function resweepStalledOut(queue: Queue<TurnJobData>, job: Job<TurnJobData>): Promise<boolean> {
  const { messageId } = job.data;
  if (!messageId || !stalledOut(job)) return false;
  const resweeps = job.data.stallResweeps ?? 0;
  if (resweeps >= STALL_RESWEEPS) return false;
  const { providerRetries: _retries, ...data } = job.data;
  await addSweepJob(queue, { ...data, messageId, stallResweeps: resweeps + 1 });
  return true;
}
