import { randomUUID } from 'node:crypto';
import { Inject, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { scrubSecretText } from '@falai/agent';
import { isDatabaseUnavailable } from '@switchboard/db';
import { isFlowInputWakeKey, QUEUES, type TurnJobData } from '@switchboard/queue';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { DATABASE_BLIP_RETRY_MS, leaseBusyDelayMs, turnWorkerOptions } from '../config/worker-settings';
import { SessionLeases, type Lease } from '../lease/session-lease';
import { SessionBackoffError, SessionLeaseLostError } from './turn-errors';
import { DrainSession, type TakenSession } from './drain-session';
import { FlowInputLoader } from '../wakes/flow-input-loader';
import { RunTurn, type TurnTrigger } from './run-turn';
import { RecordUnderstandDeferral } from './record-understand-deferral';
import { RecordDeadLetter } from './record-dead-letter';
import { RetireAnsweredJobs } from './retire-answered-jobs';
import { RecordProviderBackoff } from './provider-backoff';
import { SessionEvents } from './session-events';
import { UnderstandDeferredError } from './turn-errors';
import { transientRetryDelayMs } from './turn-failure';
import { putStalledTurnJobFirst } from './stalled-turn-job';
import { resweepStalledOut, stalledOut } from '../sweeper/sweep-job';
import { ErrorBurstLog } from '../queues/error-burst-log';

type TurnJob = Job<TurnJobData>;

export type TurnJobResult =
  | { status: 'already-answered' }
  | { status: 'drained'; turns: number }
  | { status: 'woke'; turns: number; committed: boolean }
  | { status: 'input-gone' };

/**
 * Consumes `{turns}` jobs: "session S has work" — a message to answer, or a wake to run. Takes
 * the session's lease, or puts the job back as delayed: it keeps no place to lose, because the
 * holder answers every queued message of the session in order, and this job then finds its
 * message answered and ends at once.
 */
@Processor(QUEUES.turns, turnWorkerOptions())
export class TurnProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TurnProcessor.name);
  private readonly errors = new ErrorBurstLog((entry) => this.logger.error({ msg: 'turn worker error', ...entry }));
  private stopping = false;

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly leases: SessionLeases,
    private readonly drain: DrainSession,
    private readonly runTurn: RunTurn,
    private readonly inputs: FlowInputLoader,
    private readonly events: SessionEvents,
    private readonly deferrals: RecordUnderstandDeferral,
    private readonly deadLetters: RecordDeadLetter,
    private readonly retire: RetireAnsweredJobs,
    private readonly backoff: RecordProviderBackoff,
    @InjectQueue(QUEUES.turns) private readonly queue: Queue<TurnJobData>,
  ) {
    super();
  }

  /** Starts taking jobs once every module is ready (turnWorkerOptions has autorun off). */
  onApplicationBootstrap(): void {
    this.worker.concurrency = this.env.WORKER_CONCURRENCY;
    this.logger.log({ msg: 'turn worker started', concurrency: this.env.WORKER_CONCURRENCY });
    this.worker.run().catch((err: unknown) => this.logger.error({ msg: 'turn worker stopped', error: (err as Error).message }));
  }

  /**
   * Runs before the database and Redis modules close (they are global, destroyed last): stop
   * taking jobs and wait for running turns to commit.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.logger.log({ msg: 'worker stopping: no new jobs, finishing running turns' });
    await this.worker.close();
    this.errors.flush();
    this.logger.log({ msg: 'turn worker closed' });
  }

  /**
   * One attempt, retried in place while the database is away (a restart, a failover, a lost
   * connection): the job keeps its place. Failing the attempt instead let BullMQ retry it after
   * its backoff at the back of the line, and under a backlog its session waited minutes (the
   * chaos run's Postgres outage). Past the last rung the attempt fails as BullMQ's retry.
   */
  async process(job: TurnJob, token?: string): Promise<TurnJobResult> {
    for (let blip = 0; ; blip++) {
      try {
        return await this.attempt(job, token);
      } catch (err) {
        const delayMs = DATABASE_BLIP_RETRY_MS[blip];
        if (delayMs === undefined || this.stopping || !isDatabaseUnavailable(err)) throw err;
        this.logger.warn({ msg: 'turn waits: database unavailable', sessionId: job.data.sessionId, retry: blip + 1, delayMs, error: (err as Error).message });
        await new Promise((r) => setTimeout(r, delayMs));
      }
    }
  }

  private async attempt(job: TurnJob, token?: string): Promise<TurnJobResult> {
    const { tenantId, sessionId, messageId, wake } = job.data;
    // A turn of this process answered the message while its job waited: nothing to take or read.
    if (!wake && messageId && this.retire.wasAnswered(messageId)) return { status: 'already-answered' };
    // The lease first: the drain's first read tells whether the own message still waits (read
    // with the lease in Postgres mode; DrainSession.take).
    const taken = wake ? await this.leases.acquire(sessionId).then((lease) => lease && { lease }) : await this.drain.take(tenantId, sessionId, messageId);
    if (!taken) {
      // Busy: most likely its holder is draining this very burst. It answers this message too and
      // then removes this job (RetireAnsweredJobs), so waiting costs no read; a job that comes back
      // first finds its message answered in its claim. A job back from a stall likely finds the
      // lease its own dead worker still holds: it waits that out and drains the session, as that
      // worker would have (the later messages' jobs may be gone, and nobody else may come).
      return this.retryLater(job, token);
    }
    const { lease } = taken;
    try {
      return job.data.wake ? await this.wake(job, token, lease) : await this.answer(job, token, taken);
    } catch (err) {
      if (err instanceof DelayedError) throw err;
      if (err instanceof SessionLeaseLostError) return await this.retryLater(job, token);
      if (err instanceof SessionBackoffError) return await this.awaitModel(job, token, err);
      // The provider is down for now: the messages stay queued and this job comes back later.
      const cause = err instanceof UnderstandDeferredError ? err.cause : err;
      // The session's rung when its other jobs were deferred before this one (they all wait as one).
      const retries = Math.max(job.data.providerRetries ?? 0, err instanceof UnderstandDeferredError ? err.sessionDeferrals : 0);
      const delay = transientRetryDelayMs(cause, retries);
      if (delay === undefined) throw err;
      this.logger.warn({ msg: 'turn deferred: provider unavailable', sessionId, retries, delayMs: delay, error: (cause as Error).message });
      await job.updateData({ ...job.data, providerRetries: retries + 1 });
      const deferredAt = Date.now();
      const retryAt = new Date(deferredAt + delay);
      const replies = err instanceof UnderstandDeferredError ? await this.recordDeferral(job, err, deferredAt, retryAt, retries + 1) : [];
      // Whoever waits on these messages (`?wait`, the stream) learns now that the answer comes later.
      const waiting = await this.drain.queuedIds(tenantId, sessionId);
      if (waiting.length > 0) await this.events.publish(sessionId, { type: 'deferred', waiting, retryAt: retryAt.toISOString(), replies });
      // `return await`, never a bare `return`: inside try/finally a returned promise is only
      // taken up after `finally` (the lease release, a round trip) has finished. The DelayedError
      // it rejects with meanwhile had no handler, and Node ended the worker on an unhandled
      // rejection, and every worker after it that picked the job up again (issue #17).
      // At the retry time the session's backoff and the `deferred` event announced, not later by
      // however long recording them took.
      return await this.retryAt(job, token, retryAt.getTime());
    } finally {
      await lease.release();
    }
  }

  /**
   * A turn answering customer messages was deferred: its Turn row and the holding message (once
   * per deferred turn; the replies sent now), then the session's backoff, so its other jobs wait
   * for this one. The backoff goes second: it is stamped with the session version the deferral's
   * own commit leaves.
   */
  private async recordDeferral(job: TurnJob, err: UnderstandDeferredError, deferredAt: number, retryAt: Date, deferrals: number): Promise<{ id: string; text: string }[]> {
    const { tenantId, sessionId } = job.data;
    const replies = await this.deferrals.execute({ tenantId, sessionId, messageIds: err.messageIds, error: err.cause, retryAt });
    await this.backoff.execute(tenantId, sessionId, { retryAt: retryAt.getTime(), deferredAt, deferrals });
    return replies;
  }

  /**
   * The session waits for its model: this job comes back after the session's retry time, without
   * a call. Whoever waits on its message (`?wait`, the stream) learns now that the answer comes later.
   */
  private async awaitModel(job: TurnJob, token: string | undefined, err: SessionBackoffError): Promise<never> {
    const { sessionId, messageId } = job.data;
    if (messageId) await this.events.publish(sessionId, { type: 'deferred', waiting: [messageId], retryAt: new Date(err.retryAt).toISOString(), replies: [] });
    return this.retryLater(job, token, err.waitMs);
  }

  private async answer(job: TurnJob, token: string | undefined, { lease, first }: TakenSession): Promise<TurnJobResult> {
    const { tenantId, sessionId, messageId, acceptedAt } = job.data;
    // The drain retires the jobs of the burst's other messages as it answers them.
    const result = await this.drain.execute({ tenantId, sessionId, ownMessageId: messageId, acceptedAt, lease, first, stopping: () => this.stopping });
    if (!result.ownSettled) return this.retryLater(job, token);
    // Settled, and not by a turn of this drain: an earlier holder answered it.
    if (result.turns === 0) return { status: 'already-answered' };
    return { status: 'drained', turns: result.turns };
  }

  /**
   * Customer messages waiting in the session go first (they hold the floor), then the wake runs.
   * A flow input (an event or start the API stored as a Wake row) runs the same way, through
   * the same lease and commit, with its payload read from the row.
   */
  private async wake(job: TurnJob, token: string | undefined, lease: Lease): Promise<TurnJobResult> {
    const { tenantId, sessionId, wake, wakeAt } = job.data;
    const at = wakeAt ?? job.timestamp;
    let trigger: TurnTrigger = { kind: 'wake', key: wake!, at };
    if (isFlowInputWakeKey(wake!)) {
      const input = await this.inputs.pending(tenantId, sessionId, wake!);
      if (!input) return { status: 'input-gone' };
      trigger = { kind: 'input', key: wake!, at, input };
    }
    const drained = await this.drain.execute({ tenantId, sessionId, lease, stopping: () => this.stopping });
    if (this.stopping || !lease.isHeld) return this.retryLater(job, token);
    const committed = await this.runTurn.execute(tenantId, sessionId, trigger, lease);
    return { status: 'woke', turns: drained.turns, committed: committed !== null };
  }

  private retryLater(job: TurnJob, token: string | undefined, delayMs?: number): Promise<never> {
    return this.retryAt(job, token, Date.now() + (delayMs ?? leaseBusyDelayMs(Date.now() - job.timestamp)));
  }

  /** Puts the job back, delayed until `at` (epoch ms), and rejects with the DelayedError BullMQ expects. */
  private async retryAt(job: TurnJob, token: string | undefined, at: number): Promise<never> {
    await job.moveToDelayed(at, token);
    throw new DelayedError();
  }

  /** BullMQ's stalled check (in this process) gave back a job whose worker died mid-turn. */
  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    putStalledTurnJobFirst(this.worker, jobId).then(
      (moved) => moved && this.logger.log({ msg: 'stalled turn job put first in line', jobId }),
      (err: unknown) => this.logger.warn({ msg: 'stalled turn job keeps its place', jobId, error: (err as Error).message }),
    );
  }

  @OnWorkerEvent('failed')
  onFailed(job: TurnJob | undefined, err: Error): void {
    if (job && stalledOut(job)) {
      // Its workers kept dying: the message gets a fresh job now rather than a dead letter.
      resweepStalledOut(this.queue, job).then(
        (added) => {
          this.logger.warn({ msg: added ? 'stalled-out turn job swept again' : 'stalled-out turn job dead-lettered', jobId: job.id, sessionId: job.data.sessionId, stallResweeps: job.data.stallResweeps ?? 0 });
          if (!added) this.tellDeadLetter(job, err);
        },
        (error: unknown) => this.logger.error({ msg: 'stalled-out turn job left to the sweeper', jobId: job.id, error: (error as Error).message }),
      );
      return;
    }
    this.logger.error({
      msg: 'turn job failed',
      errorId: randomUUID(),
      jobId: job?.id,
      sessionId: job?.data.sessionId,
      attemptsMade: job?.attemptsMade,
      error: scrubSecretText(err.message),
      stack: err.stack === undefined ? undefined : scrubSecretText(err.stack),
    });
    // The last attempt: the job is a dead letter now, and its customer hears so.
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) this.tellDeadLetter(job, err);
  }

  /** The customer of a dead-lettered message gets the fallback message (once per message; best effort, logged inside). */
  private tellDeadLetter(job: TurnJob, err: Error): void {
    void this.deadLetters.execute(job.data, err.message);
  }

  // BullMQ emits `error` for connection trouble; without a listener Node would crash the process.
  // An outage makes it emit the same error many times a second: those are counted, not each logged.
  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.errors.report(err.message);
  }
}
