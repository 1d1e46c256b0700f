import type { TurnStatus } from './jobs';

/** What a committed turn left behind, as the worker has it before commit and the API reads it back. */
export interface TurnTrace {
  /** An inbound message of the turn is `failed` (nothing could be sent). */
  inboundFailed: boolean;
  /** The kinds of the turn's replies (`fallback`, `holding`, the engine's kinds). */
  replyKinds: readonly (string | null)[];
  /** The turn's step outcomes (stored as JSON: fields may be missing). */
  outcomes: readonly { status?: string; code?: string; until?: string }[];
}

/**
 * How a turn ended for the customer: `failed` when the fallback went out (or nothing could be
 * sent), `deferred` with the retry time when a provider outage deferred it and only a holding
 * message (if any) was sent, else `answered`. One rule for the worker's live events and the API's
 * reads (`?wait` after the fact, the stream's catch-up), so they never disagree.
 */
export function turnStatusOf(t: TurnTrace): { status: TurnStatus; retryAt?: string } {
  if (t.inboundFailed || t.replyKinds.includes('fallback')) return { status: 'failed' };
  if (!t.replyKinds.some((k) => k !== 'holding')) {
    const deferred = t.outcomes.find((o) => o.status === 'deferred' && o.code?.startsWith('provider-') && o.until);
    if (deferred) return { status: 'deferred', retryAt: deferred.until };
  }
  return { status: 'answered' };
}
