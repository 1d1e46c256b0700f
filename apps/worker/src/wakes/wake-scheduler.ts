import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { ScheduledWake } from '@falai/agent';
import { QUEUES, TURN_JOB_OPTIONS, wakeJobId, wakeJobName, type TurnJobData } from '@switchboard/queue';

// One job id per (session, wake key), shared with the API's flow inputs: scheduling twice adds one job.
export { wakeJobId };

/**
 * Turns the engine's `schedule[]` into delayed `{turns}` jobs. Best effort after the commit: the
 * wake also lives in the saved session (the run's `waiting`), and the sweeper re-adds due wakes
 * that have no job (a Redis outage, a flush).
 */
@Injectable()
export class WakeScheduler {
  private readonly logger = new Logger(WakeScheduler.name);

  constructor(@InjectQueue(QUEUES.turns) private readonly queue: Queue<TurnJobData>) {}

  async schedule(tenantId: string, sessionId: string, wakes: readonly ScheduledWake[]): Promise<void> {
    for (const wake of wakes) {
      try {
        await this.enqueue(tenantId, sessionId, wake.key, Date.parse(wake.at));
      } catch (err) {
        this.logger.warn({ msg: 'wake not scheduled; the sweeper will add it when due', sessionId, wake: wake.key, error: (err as Error).message });
      }
    }
  }

  /** Adds the wake's job (a no-op while a job with its id exists); `replaceFinished` first removes a finished one. */
  async enqueue(tenantId: string, sessionId: string, key: string, at: number, replaceFinished = false): Promise<void> {
    const jobId = wakeJobId(sessionId, key);
    if (replaceFinished) await this.queue.remove(jobId).catch(() => undefined);
    await this.queue.add(
      wakeJobName(key),
      { tenantId, sessionId, acceptedAt: Date.now(), wake: key, wakeAt: at },
      { ...TURN_JOB_OPTIONS, jobId, delay: Math.max(0, at - Date.now()) },
    );
  }
}
