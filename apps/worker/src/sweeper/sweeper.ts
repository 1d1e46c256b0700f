import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { PrismaService } from '@switchboard/db';
import { QUEUES, turnJobId, type TurnJobData } from '@switchboard/queue';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SWEEP_BATCH, SWEEP_PARALLEL } from '../config/worker-settings';
import { LEASE_STORE } from '../backend/backend.tokens';
import type { LeaseStore } from '../lease/lease-store';
import { WakeScheduler, wakeJobId } from '../wakes/wake-scheduler';
import { PeriodicTask } from '../periodic/periodic-task';
import { addSweepJob, resweepStalledOut, sweepJobId } from './sweep-job';

export { sweepJobId } from './sweep-job';

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export interface SweepReport {
  /** Queued messages older than the grace period. */
  stale: number;
  /** Of those, the ones that had no live job and got one. */
  enqueued: number;
  /** Scheduled wakes due before the next sweep. */
  dueWakes: number;
  /** Of those, the ones that had no live job and got one. */
  wakesEnqueued: number;
}

interface DueWake {
  sessionId: string;
  tenantId: string;
  key: string;
  at: Date;
}

/**
 * Postgres is the source of truth: a message accepted but still `queued` after the grace period
 * with no live job (a lost enqueue, a crashed worker whose job failed, a flushed Redis) gets a
 * new job, and so does a scheduled wake (a Wake row) with no live job. One sweep per interval across all workers: a
 * lease (a Redis key taken with NX, or a lease row in Postgres mode) taken for one interval and
 * left to expire decides who sweeps.
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Sweeper.name);
  private readonly periodic = new PeriodicTask(this.logger, 'sweep failed', () => this.tick());
  /** Where the next sweep's batch starts (a message `seq`); 0 after a batch that reached the end. */
  private after = 0n;

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    @Inject(LEASE_STORE) private readonly locks: LeaseStore,
    @InjectQueue(QUEUES.turns) private readonly queue: Queue<TurnJobData>,
    private readonly prisma: PrismaService,
    private readonly wakes: WakeScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(this.env.SWEEPER_INTERVAL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Sweeps if no other worker swept during this interval; null when it was not our turn. */
  async tick(): Promise<SweepReport | null> {
    const key = `${this.env.QUEUE_PREFIX}:sweeper`;
    const ours = await this.locks.take(key, `${process.pid}-${randomUUID()}`, this.env.SWEEPER_INTERVAL_MS);
    if (!ours) return null;
    return this.sweepOnce();
  }

  async sweepOnce(now = Date.now()): Promise<SweepReport> {
    // Oldest first, a batch per sweep, each sweep going on after the last one's batch: under a
    // backlog the oldest batch all have live jobs, and a lost job further back would otherwise
    // wait for the whole backlog to drain before a sweep looked at it.
    const stale = await this.prisma.message.findMany({
      where: { direction: 'inbound', status: 'queued', createdAt: { lt: new Date(now - this.env.SWEEPER_GRACE_MS) }, seq: { gt: this.after } },
      orderBy: { seq: 'asc' },
      take: SWEEP_BATCH,
      select: { id: true, tenantId: true, sessionId: true, createdAt: true, seq: true },
    });
    this.after = stale.length === SWEEP_BATCH ? stale[stale.length - 1].seq : 0n;
    // The checks of a batch go out together: one by one, 500 stale messages cost a thousand Redis
    // round trips in a row, and on a busy worker that took minutes while lost messages waited.
    let enqueued = 0;
    for (let i = 0; i < stale.length; i += SWEEP_PARALLEL) {
      const added = await Promise.all(stale.slice(i, i + SWEEP_PARALLEL).map((m) => this.sweepMessage(m)));
      enqueued += added.filter(Boolean).length;
    }
    // Wakes due before the next sweep: a lost job is re-added with its delay and fires on time.
    // No grace is needed: a wake and its post-commit job share one job id, so a race adds one job.
    const due = await this.dueWakes(new Date(now + this.env.SWEEPER_INTERVAL_MS));
    let wakesEnqueued = 0;
    for (const w of due) {
      if (await this.isLive(wakeJobId(w.sessionId, w.key))) continue;
      await this.wakes.enqueue(w.tenantId, w.sessionId, w.key, w.at.getTime(), true);
      wakesEnqueued++;
    }
    const report = { stale: stale.length, enqueued, dueWakes: due.length, wakesEnqueued };
    if (stale.length > 0 || due.length > 0) this.logger.log({ msg: 'sweep', ...report });
    return report;
  }

  /** Gives a stale message a job if it has no live one; true when it added one. */
  private async sweepMessage(m: { id: string; tenantId: string; sessionId: string; createdAt: Date }): Promise<boolean> {
    if (await this.hasLiveJob(m.id)) return false;
    const sweep = await this.queue.getJob(sweepJobId(m.id));
    if (sweep && (await sweep.getState()) === 'failed') {
      // Stalled out (its workers died): a fresh job, as the processor adds one at once; a
      // worker that died before it could is covered here. Failed for an error of its own: the
      // message is dead-lettered (the failed job stays visible and can be retried); sweeping it
      // again would loop forever.
      return resweepStalledOut(this.queue, sweep);
    }
    await addSweepJob(this.queue, { tenantId: m.tenantId, sessionId: m.sessionId, messageId: m.id, acceptedAt: m.createdAt.getTime() });
    return true;
  }

  private async hasLiveJob(messageId: string): Promise<boolean> {
    return (await this.isLive(turnJobId(messageId))) || (await this.isLive(sweepJobId(messageId)));
  }

  private async isLive(jobId: string): Promise<boolean> {
    return LIVE_STATES.has(await this.queue.getJobState(jobId));
  }

  /** Scheduled wakes due before `before` (Wake rows are written in the turn's commit). */
  private async dueWakes(before: Date): Promise<DueWake[]> {
    const rows = await this.prisma.wake.findMany({
      where: { status: 'scheduled', dueAt: { lt: before } },
      orderBy: { dueAt: 'asc' },
      take: SWEEP_BATCH,
      select: { sessionId: true, tenantId: true, key: true, dueAt: true },
    });
    return rows.map((w) => ({ sessionId: w.sessionId, tenantId: w.tenantId, key: w.key, at: w.dueAt }));
  }
}
