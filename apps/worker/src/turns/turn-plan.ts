import { scrubSecretText, type Session, type StepOutcome, type TurnResult } from '@falai/agent';
import { turnStatusOf, type TurnStatus } from '@switchboard/queue';
import type { OutboundReply, TurnCommit } from './commit-turn';
import { failedForGood, outcomeUsage, turnUsage } from './turn-record';

// What a turn commits, shaped from the engine's result or from a failure no retry can fix.

/** Everything a commit needs that does not depend on how the turn went. */
export type TurnBase = Omit<TurnCommit, 'inboundStatus' | 'state' | 'replies' | 'usage' | 'wakes'>;

/** How the turn ended for the customer, for `?wait` and the stream (libs/queue turnStatusOf). */
export function turnStatus(commit: TurnCommit): { status: TurnStatus; retryAt?: string } {
  return turnStatusOf({ inboundFailed: commit.inboundStatus === 'failed', replyKinds: commit.replies.map((r) => r.kind), outcomes: commit.usage.outcomes });
}

/** What a turn may add to the engine's messages when something failed. */
export interface TurnFallbacks {
  /** The agent's fallback message, keyed by what the turn answers (a retried job reuses the key). */
  fallback: OutboundReply;
  /** The agent's holding message, when it has one. */
  holding?: string;
  /** The turn answers customer messages (not a wake or a flow event no one is waiting on). */
  customerWaits: boolean;
}

/**
 * The engine's messages, plus:
 * - the fallback when a run ended failed for a provider reason, or when the customer waits and
 *   the turn said nothing because something failed (a run ended failed, a step or tool failed);
 * - the holding message when a talk step was deferred by a provider outage and nothing was said,
 *   keyed by the run and step so the step's later deferrals (and a retried job) never send it again.
 */
export function planFromResult(base: TurnBase, result: TurnResult, extra: TurnFallbacks): TurnCommit {
  const replies: OutboundReply[] = result.messages.map((m) => ({
    key: m.key,
    text: m.text,
    kind: m.kind,
    ...(m.afterMs !== undefined && { afterMs: m.afterMs }),
  }));
  const silent = replies.length === 0;
  if (failedForGood(result) || (silent && extra.customerWaits && failedSilently(result))) replies.push(extra.fallback);
  else if (silent && extra.holding) {
    const deferred = deferredByProvider(result);
    if (deferred) replies.push({ key: `holding:${deferred.runId ?? 'idle'}:${deferred.stepId ?? 'step'}`, text: extra.holding, kind: 'holding' });
  }
  return { ...base, inboundStatus: 'answered', state: result.session, replies, usage: turnUsage(result), wakes: result.schedule };
}

/** A run ended failed, or a step reported a failure: the turn's silence is not the flow's choice. */
function failedSilently(result: TurnResult): boolean {
  return result.ended.some((r) => r.reason === 'failed') || result.outcomes.some((o) => o.status === 'failed');
}

/** The talk step a provider outage deferred in this turn, if any. */
export function deferredByProvider(result: TurnResult): TurnResult['outcomes'][number] | undefined {
  return result.outcomes.find((o) => o.status === 'deferred' && (o.code === 'provider-unavailable' || o.code === 'provider-quota'));
}

/**
 * A turn that could not run (the provider refused for good, the agent cannot be built): the
 * Turn row records the code, the customer gets the fallback when there is one, and the inbound
 * message is `failed` when nothing was sent. The stored state is kept as it was.
 */
export function planFailure(
  base: TurnBase,
  state: Session | null,
  code: string,
  err: Error,
  fallback: OutboundReply | undefined,
): TurnCommit {
  const replies = fallback ? [fallback] : [];
  const outcome: StepOutcome = {
    kind: 'idle',
    status: 'failed',
    code: code as StepOutcome['code'],
    // Whatever threw, a key it quotes is not stored (the providers scrub their own errors already).
    message: scrubSecretText(err.message),
    at: new Date().toISOString(),
  };
  // A provider failure still cost the call that failed.
  const usage = outcomeUsage(outcome, code.startsWith('provider-') ? 1 : 0);
  return { ...base, inboundStatus: replies.length ? 'answered' : 'failed', state, replies, usage, wakes: [] };
}

/**
 * Messages that reach a session handed off to a person: recorded as answered by a turn with the
 * `handed-off` outcome and no model call and no reply, so they leave the queue and the transcript
 * shows who had the conversation.
 */
export function planHandedOff(base: TurnBase, state: Session | null): TurnCommit {
  const outcome: StepOutcome = { kind: 'idle', status: 'skipped', code: 'handed-off' as StepOutcome['code'], at: new Date().toISOString() };
  const usage = outcomeUsage(outcome);
  return { ...base, inboundStatus: 'answered', state, replies: [], usage, wakes: [] };
}
