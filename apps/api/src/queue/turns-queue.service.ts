import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createBullQueue, QUEUES, TURN_JOB_OPTIONS, turnJobId, wakeJobId, wakeJobName, type TurnJobData } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { ENV } from '../config/env.module';
import { GroupCommit, type Outcome } from '../common/group-commit';
import { withTimeout } from '../common/with-timeout';
import { FairShare } from './fair-share';

/** An enqueue that takes longer than this is treated as "queue down"; the sweeper retries it. */
const ENQUEUE_TIMEOUT_MS = 2000;
/** Turn jobs added together with addBulk: at most this many, gathered for at most this long. */
const MAX_BULK = 64;
const MAX_BULK_WAIT_MS = 2;

type TurnJob = TurnJobData & { messageId: string };

/**
 * The API side of the turns queue: adds one job per accepted inbound message. On Redis, or on
 * BullMQ's Postgres backend in Postgres mode (QUEUE_BACKEND): the same Queue either way.
 */
@Injectable()
export class TurnsQueue implements OnModuleDestroy {
  private readonly logger = new Logger(TurnsQueue.name);
  private readonly queue: Queue<TurnJobData>;
  private readonly bulks = new GroupCommit<TurnJob, boolean>((jobs) => this.addTurnJobs(jobs), { maxBatch: MAX_BULK, maxWaitMs: MAX_BULK_WAIT_MS });

  constructor(
    @Inject(ENV) env: Env,
    private readonly fairShare: FairShare,
  ) {
    // Without the offline queue an add fails at once while Redis is down instead of hanging.
    this.queue = createBullQueue<TurnJobData>(QUEUES.turns, env, { enableOfflineQueue: false });
    this.queue.on('error', (err) => this.logger.warn({ err: err.message }, 'turns queue connection error'));
  }

  /**
   * Adds the turn job for a message. Returns false (and logs) when the queue cannot take it: the
   * message is already stored as `queued`, so the worker's sweeper enqueues it later. Its
   * priority is the tenant's fair share (FairShare). The jobs of concurrent requests are added
   * together, in one addBulk and one fair-share count per tenant (GroupCommit).
   */
  enqueue(data: TurnJob): Promise<boolean> {
    return this.bulks.submit(data);
  }

  private async addTurnJobs(jobs: TurnJob[]): Promise<Outcome<boolean>[]> {
    let added: { data: TurnJob; priority: number }[] = [];
    try {
      added = await withTimeout(this.withPriorities(jobs), ENQUEUE_TIMEOUT_MS, 'count fair shares');
      await withTimeout(this.addAll(added.map((job) => this.turnJob(job))), ENQUEUE_TIMEOUT_MS, 'enqueue turn jobs');
      return jobs.map(() => ({ ok: true, value: true }));
    } catch (err) {
      // Fair shares uncounted or Redis down: each job is the sweeper's. A bulk refused for
      // one job's sake: each is tried alone, so only that one is left to the sweeper.
      if (added.length < 2) return jobs.map((data) => ({ ok: true, value: this.notEnqueued(data, err) }));
      return Promise.all(added.map(async (job) => ({ ok: true as const, value: await this.addOne(job) })));
    }
  }

  /**
   * One job goes as a plain add: addBulk builds an ioredis pipeline, and each new pipeline copies
   * every one of BullMQ's Lua commands onto itself (4% of the API's CPU at ingest, more when the
   * API is not saturated and most batches hold one message).
   */
  private async addAll(jobs: ReturnType<TurnsQueue['turnJob']>[]): Promise<void> {
    if (jobs.length === 1) await this.queue.add(jobs[0].name, jobs[0].data, jobs[0].opts);
    else await this.queue.addBulk(jobs);
  }

  private async withPriorities(jobs: TurnJob[]): Promise<{ data: TurnJob; priority: number }[]> {
    const byTenant = new Map<string, TurnJob[]>();
    for (const job of jobs) byTenant.set(job.tenantId, [...(byTenant.get(job.tenantId) ?? []), job]);
    const priorities = new Map<TurnJob, number>();
    await Promise.all(
      [...byTenant].map(async ([tenantId, own]) => {
        const next = await this.fairShare.nextPriorities(tenantId, own.length);
        own.forEach((job, i) => priorities.set(job, next[i]));
      }),
    );
    return jobs.map((data) => ({ data, priority: priorities.get(data)! }));
  }

  private async addOne(job: { data: TurnJob; priority: number }): Promise<boolean> {
    try {
      const { name, data, opts } = this.turnJob(job);
      await withTimeout(this.queue.add(name, data, opts), ENQUEUE_TIMEOUT_MS, 'enqueue turn job');
      return true;
    } catch (err) {
      return this.notEnqueued(job.data, err);
    }
  }

  private turnJob({ data, priority }: { data: TurnJob; priority: number }) {
    return { name: 'turn', data, opts: { ...TURN_JOB_OPTIONS, jobId: turnJobId(data.messageId), priority } };
  }

  private notEnqueued(data: TurnJob, err: unknown): false {
    this.logger.error(
      { err: (err as Error).message, messageId: data.messageId, sessionId: data.sessionId },
      'could not enqueue the turn job; the message stays queued for the sweeper',
    );
    return false;
  }

  /**
   * Adds the job of a flow input (an event or a start stored as a Wake row), with the id the
   * worker's scheduler and sweeper use for that wake. False (logged) when Redis cannot take it:
   * the row is due, so the sweeper adds the job.
   */
  async enqueueWake(data: TurnJobData & { wake: string }): Promise<boolean> {
    try {
      await withTimeout(
        this.fairShare.nextPriority(data.tenantId).then((priority) =>
          this.queue.add(wakeJobName(data.wake), data, { ...TURN_JOB_OPTIONS, jobId: wakeJobId(data.sessionId, data.wake), priority }),
        ),
        ENQUEUE_TIMEOUT_MS,
        'enqueue flow input job',
      );
      return true;
    } catch (err) {
      this.logger.error(
        { err: (err as Error).message, wake: data.wake, sessionId: data.sessionId },
        'could not enqueue the flow input job; the sweeper adds it',
      );
      return false;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
