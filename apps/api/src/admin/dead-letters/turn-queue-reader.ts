import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createBullQueue, QUEUES, type TurnJobData } from '@switchboard/queue';
import type { Job, Queue } from 'bullmq';
import { ApiError } from '../../common/errors';
import { withTimeout } from '../../common/with-timeout';
import { ENV } from '../../config/env.module';

const REDIS_TIMEOUT_MS = 3000;
/** Failed jobs read per round trip while scanning the failed set. */
const SCAN_PAGE = 500;
/**
 * The newest failed jobs a scan looks at. BullMQ keeps failed turn jobs a week and has no
 * per-tenant index, so a tenant's dead letters are found by reading the failed set and
 * filtering on the job data; this bounds the cost of one console page.
 */
export const SCAN_LIMIT = 5000;

export type TurnJob = Job<TurnJobData>;
export type QueueCounts = Record<'waiting' | 'active' | 'delayed' | 'failed' | 'completed' | 'prioritized' | 'waitingChildren', number>;

/** The queue's store (Redis, or Postgres in Postgres mode) did not answer: nothing was changed. */
export class QueueUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'queue-unavailable';
  /** Seconds a client should wait before retrying; sent as Retry-After. */
  readonly retryAfterSeconds = 5;

  constructor(what: string) {
    super(`The job queue did not answer (${what}). Nothing was changed; retry in a few seconds.`);
  }
}

/** The admin side of the `{turns}` queue: counts, failed jobs (the turn dead letters), retries. */
@Injectable()
export class TurnQueueReader implements OnModuleDestroy {
  private readonly logger = new Logger(TurnQueueReader.name);
  readonly queue: Queue<TurnJobData>;

  constructor(@Inject(ENV) env: Env) {
    // Redis, or BullMQ's Postgres backend in Postgres mode: the same queue the API adds to. Without
    // the offline queue a read fails at once while Redis is down instead of hanging the request.
    this.queue = createBullQueue<TurnJobData>(QUEUES.turns, env, { enableOfflineQueue: false });
    this.queue.on('error', (err) => this.logger.warn({ err: err.message }, 'turns queue (admin) connection error'));
  }

  counts(): Promise<QueueCounts> {
    return this.call('count jobs', async () => {
      const c = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children');
      return {
        waiting: c.waiting ?? 0,
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        failed: c.failed ?? 0,
        completed: c.completed ?? 0,
        prioritized: c.prioritized ?? 0,
        waitingChildren: c['waiting-children'] ?? 0,
      };
    });
  }

  /** The failed jobs `keep` accepts among the newest SCAN_LIMIT, newest first; `truncated` when older ones were not read. */
  failed(keep: (job: TurnJob) => boolean): Promise<{ jobs: TurnJob[]; truncated: boolean }> {
    return this.call('read failed jobs', async () => {
      const jobs: TurnJob[] = [];
      for (let start = 0; start < SCAN_LIMIT; start += SCAN_PAGE) {
        const page = (await this.queue.getJobs(['failed'], start, start + SCAN_PAGE - 1, false)) as TurnJob[];
        jobs.push(...page.filter((j) => j && keep(j)));
        if (page.length < SCAN_PAGE) return { jobs, truncated: false };
      }
      return { jobs, truncated: (await this.queue.getFailedCount()) > SCAN_LIMIT };
    });
  }

  job(id: string): Promise<TurnJob | undefined> {
    return this.call('read a job', async () => (await this.queue.getJob(id)) as TurnJob | undefined);
  }

  state(job: TurnJob): Promise<string> {
    return this.call('read a job state', () => job.getState());
  }

  /**
   * Back to waiting with fresh attempts. False when the job is no longer failed (someone retried
   * it first): BullMQ refuses to move it, and the state read after says why.
   */
  async retry(job: TurnJob): Promise<boolean> {
    try {
      await withTimeout(job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }), REDIS_TIMEOUT_MS, 'retry a job');
      return true;
    } catch (err) {
      if ((await this.state(job)) !== 'failed') return false;
      this.logger.warn({ err: (err as Error).message, jobId: job.id }, 'could not retry a failed turn job');
      throw new QueueUnavailableError('retry a job');
    }
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(fn(), REDIS_TIMEOUT_MS, what);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, what }, 'turns queue call failed');
      throw new QueueUnavailableError(what);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
