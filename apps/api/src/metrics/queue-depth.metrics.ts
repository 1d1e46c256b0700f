import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createBullQueue, QUEUES } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { Counter, Gauge } from 'prom-client';
import { withTimeout } from '../common/with-timeout';
import { ENV } from '../config/env.module';
import { MetricsService } from './metrics.service';

/** Job states reported per queue. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
type QueueState = (typeof QUEUE_STATES)[number];
/** A scrape waits this long for Redis per queue; a slow Redis costs the numbers, never the scrape. */
export const QUEUE_COUNT_TIMEOUT_MS = 1000;

/**
 * `switchboard_queue_jobs{queue,state}`: each BullMQ queue's job counts, read from the queue
 * backend when Prometheus scrapes (getJobCounts, one round trip per queue). A queue that does not answer in
 * time reports no series on that scrape (rather than stale numbers) and counts in
 * `switchboard_queue_depth_errors_total`.
 */
@Injectable()
export class QueueDepthMetrics implements OnModuleDestroy {
  private readonly logger = new Logger(QueueDepthMetrics.name);
  private readonly queues: { label: string; queue: Queue }[];
  private readonly misses: Counter<'queue'>;
  /** The counts of the scrape in progress: the registry collects every metric at once, and both metrics here wait on one read. */
  private reading?: Promise<Map<string, Record<QueueState, number>>>;

  constructor(@Inject(ENV) env: Env, metrics: MetricsService) {
    this.queues = Object.values(QUEUES).map((name) => {
      // The backend the apps run on (Redis, or Postgres in Postgres mode), as TurnsQueue. Without
      // the offline queue a count fails at once while Redis is down instead of piling up.
      const queue = createBullQueue(name, env, { enableOfflineQueue: false });
      queue.on('error', (err) => this.logger.warn({ err: err.message, queue: name }, 'metrics queue connection error'));
      return { label: name.replace(/[{}]/g, ''), queue };
    });

    const read = () => this.read();
    new Gauge({
      name: 'switchboard_queue_jobs',
      help: 'Jobs per BullMQ queue and state (waiting, active, delayed, failed), read at scrape time',
      labelNames: ['queue', 'state'] as const,
      registers: [metrics.registry],
      async collect() {
        const counts = await read();
        this.reset();
        for (const [queue, byState] of counts) {
          for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state]);
        }
      },
    });
    this.misses = new Counter({
      name: 'switchboard_queue_depth_errors_total',
      help: 'Scrapes on which a queue did not report its job counts in time',
      labelNames: ['queue'] as const,
      registers: [metrics.registry],
      async collect() {
        await read(); // so this scrape's misses are already counted
      },
    });
  }

  private read(): Promise<Map<string, Record<QueueState, number>>> {
    this.reading ??= this.countAll().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async countAll(): Promise<Map<string, Record<QueueState, number>>> {
    const out = new Map<string, Record<QueueState, number>>();
    await Promise.all(
      this.queues.map(async ({ label, queue }) => {
        try {
          const counts = await withTimeout(queue.getJobCounts(...QUEUE_STATES, 'prioritized'), QUEUE_COUNT_TIMEOUT_MS, `job counts of ${label}`);
          const byState = Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as Record<QueueState, number>;
          // Turn jobs carry their tenant's fair-share priority (docs/fairness.md): BullMQ counts
          // them apart as "prioritized", but they wait all the same.
          byState.waiting += counts.prioritized ?? 0;
          out.set(label, byState);
        } catch {
          this.misses.inc({ queue: label });
        }
      }),
    );
    return out;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.queues.map(({ queue }) => queue.close().catch(() => undefined)));
  }
}
