// Silence follow-ups (engine.md §6): while the assistant spoke last, each silence trigger that
// may fire arms a wake `silence:${flowId}:${sessionId}:${lastAssistantAtMs}`. The wake is
// honoured only if nobody wrote since: a new message from either side changes the key.
import { parseDuration } from '../clock/duration';
import { isSilenceTrigger } from '../types/flow';
import type { SessionWake } from '../types/session';
import type { TurnState } from './state';
import { firing, isLive, mayFire } from './triggers';

export function silenceKey(flowId: string, sessionId: string, lastAssistantAtMs: number): string {
  return `silence:${flowId}:${sessionId}:${lastAssistantAtMs}`;
}

/** The silence wakes the session waits on now. */
function currentSilence(state: TurnState): SessionWake[] {
  const { session } = state;
  if (!session.lastAssistantAt) return [];
  const spokeAt = Date.parse(session.lastAssistantAt);
  if (session.lastUserAt && Date.parse(session.lastUserAt) > spokeAt) return [];
  return firing(state, isSilenceTrigger).map(({ flow, index }) => {
    const after = parseDuration((flow.on![index] as { silence: string }).silence);
    return { key: silenceKey(flow.id, session.id, spokeAt), at: new Date(spokeAt + after).toISOString(), kind: 'silence' as const, flowId: flow.id, trigger: index };
  });
}

/**
 * Re-arms the silence wakes after a turn (new keys go to the turn's schedule), and drops delayed
 * starts that are already due but could not start now (their flow is live, gone, or may not fire
 * again): they would only ever read `stale-wake`, so `pendingWakes` should not keep them.
 */
export function armSilence(state: TurnState): void {
  const { session } = state;
  const before = new Set((session.wakes ?? []).map((w) => w.key));
  const others = (session.wakes ?? []).filter((w) => w.kind !== 'silence' && !deadStart(state, w));
  const silence = currentSilence(state);
  for (const wake of silence) if (!before.has(wake.key)) state.schedule.push({ key: wake.key, at: wake.at });
  const wakes = [...others, ...silence];
  if (wakes.length > 0) session.wakes = wakes;
  else delete session.wakes;
}

function deadStart(state: TurnState, wake: SessionWake): boolean {
  if (Date.parse(wake.at) > state.now.getTime()) return false;
  const flow = state.def.flowById.get(wake.flowId);
  if (!flow || !flow.on?.[wake.trigger]) return true;
  return isLive(state, flow.id) || !mayFire(state, flow, wake.trigger);
}

/** Whether a silence wake still stands: the assistant's last message is the one it was armed for, and nobody wrote since. */
export function silenceStands(state: TurnState, wake: SessionWake): boolean {
  const { session } = state;
  if (!session.lastAssistantAt) return false;
  const spokeAt = Date.parse(session.lastAssistantAt);
  if (wake.key !== silenceKey(wake.flowId, session.id, spokeAt)) return false;
  return !session.lastUserAt || Date.parse(session.lastUserAt) <= spokeAt;
}
