import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createBullQueue, QUEUES, TURN_JOB_OPTIONS, turnJobId, wakeJobId, wakeJobName, type TurnJobData } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { ENV } from '../config/env.module';
import { withTimeout } from '../common/with-timeout';
import { FairShare } from './fair-share';

/** An enqueue that takes longer than this is treated as "queue down"; the sweeper retries it. */
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * The API side of the turns queue: adds one job per accepted inbound message. On Redis, or on
 * BullMQ's Postgres backend in Postgres mode (QUEUE_BACKEND): the same Queue either way.
 */
@Injectable()
export class TurnsQueue implements OnModuleDestroy {
  private readonly logger = new Logger(TurnsQueue.name);
  private readonly queue: Queue<TurnJobData>;

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
   * priority is the tenant's fair share (FairShare).
   */
  async enqueue(data: TurnJobData & { messageId: string }): Promise<boolean> {
    try {
      await withTimeout(
        this.fairShare.nextPriority(data.tenantId).then((priority) =>
          this.queue.add('turn', data, { ...TURN_JOB_OPTIONS, jobId: turnJobId(data.messageId), priority }),
        ),
        ENQUEUE_TIMEOUT_MS,
        'enqueue turn job',
      );
      return true;
    } catch (err) {
      this.logger.error(
        { err: (err as Error).message, messageId: data.messageId, sessionId: data.sessionId },
        'could not enqueue the turn job; the message stays queued for the sweeper',
      );
      return false;
    }
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
