import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import {
  createBullQueue,
  createBullQueueEvents,
  HTTP_TOOL_TEST_JOB_OPTIONS,
  QUEUES,
  type HttpToolTestJobData,
  type HttpToolTestResult,
} from '@switchboard/queue';
import type { Queue, QueueEvents } from 'bullmq';
import { withTimeout } from '../../common/with-timeout';
import { ENV } from '../../config/env.module';
import { HttpToolTestFailedError, HttpToolTestTimeoutError, HttpToolTestUnavailableError } from './http-tool-test.errors';

const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * The API side of `{http-tool-tests}`: adds a job and waits for the worker's result. The event
 * listener (a blocking Redis connection) opens on the first test call, not at start-up.
 */
@Injectable()
export class HttpToolTestQueue implements OnModuleDestroy {
  private readonly logger = new Logger(HttpToolTestQueue.name);
  private readonly queue: Queue<HttpToolTestJobData, HttpToolTestResult>;
  private events?: Promise<QueueEvents>;

  constructor(@Inject(ENV) private readonly env: Env) {
    // Redis, or BullMQ's Postgres backend in Postgres mode (QUEUE_BACKEND), like the turns queue.
    this.queue = createBullQueue<HttpToolTestJobData, HttpToolTestResult>(QUEUES.httpToolTests, env, { enableOfflineQueue: false });
    this.queue.on('error', (err) => this.logger.warn({ err: err.message }, 'http tool test queue connection error'));
  }

  /** Runs the test call on a worker; HttpToolTestTimeoutError when none answers within `waitMs`. */
  async run(data: HttpToolTestJobData, waitMs: number): Promise<HttpToolTestResult> {
    let events: QueueEvents;
    try {
      events = await withTimeout(this.openEvents(), ENQUEUE_TIMEOUT_MS, 'open queue events');
    } catch {
      this.events = undefined;
      throw new HttpToolTestUnavailableError();
    }
    const job = await withTimeout(this.queue.add('test-call', data, HTTP_TOOL_TEST_JOB_OPTIONS), ENQUEUE_TIMEOUT_MS, 'enqueue test call').catch(() => {
      throw new HttpToolTestUnavailableError();
    });
    try {
      return await job.waitUntilFinished(events, waitMs);
    } catch (err) {
      if (!/timed out/i.test((err as Error).message)) throw new HttpToolTestFailedError((err as Error).message);
      // Nobody took it: drop it so a worker that starts later does not call the endpoint unasked.
      await job.remove().catch(() => undefined);
      throw new HttpToolTestTimeoutError(waitMs);
    }
  }

  private openEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const events = createBullQueueEvents(QUEUES.httpToolTests, this.env);
      events.on('error', (err) => this.logger.warn({ err: err.message }, 'http tool test events connection error'));
      await events.waitUntilReady();
      return events;
    })();
    return this.events;
  }

  async onModuleDestroy(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    await Promise.all([this.queue.close().catch(() => undefined), events?.close().catch(() => undefined)]);
  }
}
