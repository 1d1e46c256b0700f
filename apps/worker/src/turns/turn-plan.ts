import { scrubSecretText, type Session, type StepOutcome, type TurnResult } from '@falai/agent';
import type { OutboundReply, TurnCommit } from './commit-turn';
import { failedForGood, turnUsage, type TurnUsage } from './turn-record';

// What a turn commits, shaped from the engine's result or from a failure no retry can fix.

/** Everything a commit needs that does not depend on how the turn went. */
export type TurnBase = Omit<TurnCommit, 'inboundStatus' | 'state' | 'replies' | 'usage' | 'wakes'>;

/** The engine's messages, plus the agent's fallback when a run ended failed for a provider reason. */
export function planFromResult(base: TurnBase, result: TurnResult, fallback: OutboundReply | undefined): TurnCommit {
  const replies: OutboundReply[] = result.messages.map((m) => ({
    key: m.key,
    text: m.text,
    kind: m.kind,
    ...(m.afterMs !== undefined && { afterMs: m.afterMs }),
  }));
  if (fallback && failedForGood(result)) replies.push(fallback);
  return { ...base, inboundStatus: 'answered', state: result.session, replies, usage: turnUsage(result), wakes: result.schedule };
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
  const usage: TurnUsage = {
    // A provider failure still cost the call that failed.
    llmCalls: code.startsWith('provider-') ? 1 : 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    outcomeCodes: [code],
    outcomes: [outcome],
    trace: [],
    modelMs: 0,
    toolsMs: 0,
  };
  return { ...base, inboundStatus: replies.length ? 'answered' : 'failed', state, replies, usage, wakes: [] };
}

/**
 * Messages that reach a session handed off to a person: recorded as answered by a turn with the
 * `handed-off` outcome and no model call and no reply, so they leave the queue and the transcript
 * shows who had the conversation.
 */
export function planHandedOff(base: TurnBase, state: Session | null): TurnCommit {
  const outcome: StepOutcome = { kind: 'idle', status: 'skipped', code: 'handed-off' as StepOutcome['code'], at: new Date().toISOString() };
  const usage: TurnUsage = {
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    outcomeCodes: ['handed-off'],
    outcomes: [outcome],
    trace: [],
    modelMs: 0,
    toolsMs: 0,
  };
  return { ...base, inboundStatus: 'answered', state, replies: [], usage, wakes: [] };
}
