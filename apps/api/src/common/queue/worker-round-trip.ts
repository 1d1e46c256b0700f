import { Logger } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createBullQueue, createBullQueueEvents } from '@switchboard/queue';
import type { JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { ApiError } from '../errors';
import { withTimeout } from '../with-timeout';

const ENQUEUE_TIMEOUT_MS = 2000;

/** The API errors a round trip answers with, named for what the caller asked the worker to do. */
export interface RoundTripErrors {
  /** No worker answered within `waitedMs`; the job was removed. */
  timeout(waitedMs: number): ApiError;
  /** The queue did not take the job: nothing ran. */
  unavailable(): ApiError;
  /** The worker took the job and failed it. */
  failed(reason: string): ApiError;
}

/**
 * Asks a worker to do one thing only a worker may do (it holds the secrets and the outbound
 * guard) and waits for the answer: adds a job to `queueName` and waits for its result. The event
 * listener (a blocking Redis connection) opens on the first call, not at start-up. Redis, or
 * BullMQ's Postgres backend in Postgres mode (QUEUE_BACKEND), like the turns queue.
 */
export class WorkerRoundTrip<Data, Result> {
  private readonly logger: Logger;
  private readonly queue: Queue<Data, Result>;
  private events?: Promise<QueueEvents>;

  constructor(
    private readonly queueName: string,
    private readonly env: Env,
    private readonly jobOptions: JobsOptions,
    private readonly errors: RoundTripErrors,
  ) {
    this.logger = new Logger(`WorkerRoundTrip ${queueName}`);
    this.queue = createBullQueue<Data, Result>(queueName, env, { enableOfflineQueue: false });
    this.queue.on('error', (err) => this.logger.warn({ err: err.message }, 'queue connection error'));
  }

  /** The worker's result; the `timeout` error when none answers within `waitMs`. */
  async run(name: string, data: Data, waitMs: number): Promise<Result> {
    let events: QueueEvents;
    try {
      events = await withTimeout(this.openEvents(), ENQUEUE_TIMEOUT_MS, 'open queue events');
    } catch {
      this.events = undefined;
      throw this.errors.unavailable();
    }
    // Data is never a Job here, so BullMQ's (unexported) conditional name and data types are string
    // and Data; TypeScript cannot resolve them for a type parameter, hence the casts.
    const job = await withTimeout(this.queue.add(name as never, data as never, this.jobOptions), ENQUEUE_TIMEOUT_MS, `enqueue ${name}`).catch(() => {
      throw this.errors.unavailable();
    });
    try {
      return (await job.waitUntilFinished(events, waitMs)) as Result;
    } catch (err) {
      if (!/timed out/i.test((err as Error).message)) throw this.errors.failed((err as Error).message);
      // Nobody took it: drop it so a worker that starts later does not run it unasked.
      await job.remove().catch(() => undefined);
      throw this.errors.timeout(waitMs);
    }
  }

  private openEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const events = createBullQueueEvents(this.queueName, this.env);
      events.on('error', (err) => this.logger.warn({ err: err.message }, 'queue events connection error'));
      await events.waitUntilReady();
      return events;
    })();
    return this.events;
  }

  async close(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    await Promise.all([this.queue.close().catch(() => undefined), events?.close().catch(() => undefined)]);
  }
}
