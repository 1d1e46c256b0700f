/** A turn job: "session S has work" (a message, or a wake). The worker reads what is pending from Postgres. */
export interface TurnJobData {
  tenantId: string;
  sessionId: string;
  /** The inbound message that caused the job (absent for wakes). */
  messageId?: string;
  /** Epoch ms when the message was accepted, for the queue-wait part of latency. */
  acceptedAt: number;
  /**
   * A wake job (added by the worker): the engine's wake key of the deferred step to run; or the
   * Wake key of a flow input (added by the API: `input:event:…` / `input:start:…`, see flow-inputs.ts).
   */
  wake?: string;
  /** Epoch ms the wake was due. */
  wakeAt?: number;
  /** Transient provider failures retried so far by this job (the worker's retry ladder). */
  providerRetries?: number;
  /** Fresh jobs this message got after one stalled out, its workers dying (apps/worker/src/sweeper/sweep-job.ts). */
  stallResweeps?: number;
}

/** Job ids derived from the message id make enqueueing idempotent: BullMQ ignores a duplicate id. */
export function turnJobId(messageId: string): string {
  return `msg-${messageId}`;
}

/** The Redis pub/sub channel where a session's committed replies (and stream deltas) are published. */
export function sessionChannel(sessionId: string): string {
  return `sb:session:${sessionId}`;
}

/**
 * How a turn ended for the customer: `answered` (the agent spoke, or chose silence), `failed`
 * (something failed and the fallback message was sent), `deferred` (the model is down for now;
 * the turn runs again at `retryAt`, a holding message may have been sent).
 */
export type TurnStatus = 'answered' | 'failed' | 'deferred';

/** What the worker publishes on sessionChannel after a commit. */
export type SessionEvent =
  | { type: 'committed'; turnId: string; answered: string[]; replies: { id: string; text: string }[]; status?: TurnStatus; retryAt?: string }
  | { type: 'delta'; turnId?: string; delta: string }
  /**
   * The model's understand call is down: these queued messages wait, and are tried again at
   * `retryAt`. `replies` holds the holding message when this deferral sent it (the first time).
   */
  | { type: 'deferred'; waiting: string[]; retryAt: string; replies?: { id: string; text: string }[] };
