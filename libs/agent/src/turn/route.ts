// Decide (engine.md §2): who takes this message. The floor holder keeps it unless a flow scores
// at least 40 and at least 15 above the holder's flow; with no holder the best score >= 40
// starts, else the most recently suspended run resumes, else the first catch-all, else idle.
import { type Flow, isMessageTrigger } from '../types/flow';
import type { Run } from '../types/session';
import { FLOOR_MARGIN, START_SCORE } from './definition';
import { floorHolder, mostRecentlySuspended, resume, startRun, suspend } from './runs';
import type { TurnState } from './state';
import { claimKey, isLive, mayFire, renews } from './triggers';

export interface Startable {
  flow: Flow;
  /** `${flowId}:${triggerIndex}` of the first trigger that may start the flow. */
  claim: string;
  catchAll: boolean;
  renew: boolean;
}

/**
 * Flows with no live run and a message trigger still allowed to fire. A flow may appear twice:
 * by its phrases, and as a catch-all (`message: []`).
 */
export function startableFlows(state: TurnState): Startable[] {
  const out: Startable[] = [];
  for (const flow of state.def.flows) {
    if (isLive(state, flow.id)) continue;
    const triggers = flow.on ?? [];
    const claimable = (catchAll: boolean) =>
      triggers.findIndex((t, i) => isMessageTrigger(t) && (t.message.length === 0) === catchAll && mayFire(state, flow, i));
    for (const catchAll of [false, true]) {
      const index = claimable(catchAll);
      if (index >= 0) out.push({ flow, claim: claimKey(flow, index), catchAll, renew: renews(triggers[index]) });
    }
  }
  return out;
}

/** The run that takes this message, or undefined for the idle speaker. */
export function decide(state: TurnState, scores: Record<string, number>): Run | undefined {
  const startable = startableFlows(state);
  let best: { s: Startable; score: number } | undefined;
  for (const s of startable) {
    if (s.catchAll) continue;
    const score = scores[s.flow.id] ?? 0;
    if (!best || score > best.score) best = { s, score };
  }
  const start = (s: Startable) => startRun(state, s.flow, s.claim, { renew: s.renew });

  const holder = floorHolder(state);
  if (holder) {
    const holderScore = scores[holder.flowId] ?? 0;
    if (best && best.score >= START_SCORE && best.score >= holderScore + FLOOR_MARGIN) {
      suspend(state, holder);
      return start(best.s);
    }
    resume(holder);
    return holder;
  }

  if (best && best.score >= START_SCORE) return start(best.s);
  const suspended = mostRecentlySuspended(state);
  if (suspended) {
    resume(suspended);
    return suspended;
  }
  const catchAll = startable.find((s) => s.catchAll);
  if (catchAll) return start(catchAll);
  return undefined;
}
