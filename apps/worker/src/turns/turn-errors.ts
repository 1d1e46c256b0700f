import type { ProviderError } from '@falai/agent';
import { describeQuota, quotaOwner, type QuotaKind } from '@switchboard/db';

/** The session moved on since it was loaded (another save won): reload and replay the turn. */
export class SessionVersionConflictError extends Error {
  readonly code = 'session-version-conflict';
  constructor(sessionId: string, expectedVersion: number) {
    super(`[SessionVersionConflictError] session ${sessionId} is no longer at version ${expectedVersion}; the turn is replayed on the fresh state.`);
    this.name = 'SessionVersionConflictError';
  }
}

/** Another turn answered the message first: this commit rolls back so nothing is stored twice. */
export class MessageAlreadyAnsweredError extends Error {
  readonly code = 'message-already-answered';
  constructor(messageIds: string[]) {
    super(`[MessageAlreadyAnsweredError] ${messageIds.join(', ')} was already answered; this turn commits nothing.`);
    this.name = 'MessageAlreadyAnsweredError';
  }
}

/**
 * The session's lease could not be renewed while the turn ran (this worker stalled or lost its
 * Redis): another worker may own the session now, so the turn stops before it commits and the
 * job comes back later. The version check would refuse a stale commit anyway; this saves it.
 */
export class SessionLeaseLostError extends Error {
  readonly code = 'session-lease-lost';
  constructor(sessionId: string) {
    super(`[SessionLeaseLostError] session ${sessionId}: the lease lapsed before the turn committed; the job will retry.`);
    this.name = 'SessionLeaseLostError';
  }
}

/** A turn that kept losing its version check; the job retries later with backoff. */
export class TurnReplayLimitError extends Error {
  readonly code = 'turn-replay-limit';
  constructor(sessionId: string, replays: number) {
    super(`[TurnReplayLimitError] session ${sessionId}: ${replays} version conflicts in a row; the job will retry.`);
    this.name = 'TurnReplayLimitError';
  }
}

/** The engine's turnStream ended without its final result chunk (an engine bug); the job retries. */
export class TurnStreamEndedError extends Error {
  readonly code = 'turn-stream-ended';
  constructor(sessionId: string) {
    super(`[TurnStreamEndedError] session ${sessionId}: turnStream ended without a result; the job will retry.`);
    this.name = 'TurnStreamEndedError';
  }
}

/** The session of a job is gone (deleted with its tenant or channel): the job fails and dead-letters. */
export class TurnSessionMissingError extends Error {
  readonly code = 'turn-session-missing';
  constructor(sessionId: string) {
    super(`[TurnSessionMissingError] session ${sessionId} does not exist (or not for this tenant); nothing to answer.`);
    this.name = 'TurnSessionMissingError';
  }
}

/**
 * The tenant has spent a monthly quota, or the agent its own budget: the turn makes no model call
 * and ends `quota-exceeded`.
 */
export class TenantQuotaExceededError extends Error {
  readonly code = 'quota-exceeded';
  constructor(which: QuotaKind, quota: number, resetsAt: Date) {
    super(
      `[TenantQuotaExceededError] the ${quotaOwner(which)} has used its ${describeQuota(which, quota)}; ` +
        `no model call is made until it resets at ${resetsAt.toISOString()} or ${which === 'agentCost' ? "the tenant raises the agent's budget" : 'the platform operator raises it'}.`,
    );
    this.name = 'TenantQuotaExceededError';
  }
}

/**
 * The understand call of a turn answering customer messages failed for now (a transient provider
 * error, `cause`): nothing was committed. The job is put back delayed; the deferral is recorded
 * once for the turn's first message (its Turn row, and the holding message when the agent has one).
 */
export class UnderstandDeferredError extends Error {
  readonly code = 'understand-deferred';
  constructor(
    readonly messageIds: string[],
    override readonly cause: ProviderError,
    /** The session's deferrals in a row before this one (its rung on the retry ladder). */
    readonly sessionDeferrals = 0,
  ) {
    super(`[UnderstandDeferredError] the model is unavailable for now (${cause.kind}): ${cause.message}`);
    this.name = 'UnderstandDeferredError';
  }
}

/**
 * The session waits for its model (a turn answering its messages was deferred until `retryAt`):
 * the job comes back after `waitMs` without calling the model (provider-backoff.ts).
 */
export class SessionBackoffError extends Error {
  readonly code = 'provider-backoff';
  constructor(
    readonly retryAt: number,
    readonly waitMs: number,
  ) {
    super(`[SessionBackoffError] the session waits for its model until ${new Date(retryAt).toISOString()}`);
    this.name = 'SessionBackoffError';
  }
}

/** A platform admin suspended the tenant: its turns make no model call and end `tenant-suspended`. */
export class TenantSuspendedError extends Error {
  readonly code = 'tenant-suspended';
  constructor(tenantId: string) {
    super(`[TenantSuspendedError] tenant ${tenantId} is suspended; no turn runs until a platform admin reactivates it.`);
    this.name = 'TenantSuspendedError';
  }
}
