// Decide (engine.md §2): who takes this message. The floor holder keeps it unless a flow scores
// at least 40 and at least 15 above the holder's flow; with no holder the best score >= 40
// starts, else the most recently suspended run resumes, else the first catch-all, else idle.
import type { Flow } from '../types/flow';
import type { Run } from '../types/session';
import { FLOOR_MARGIN, START_SCORE } from './definition';
import { floorHolder, mostRecentlySuspended, resume, startRun, suspend } from './runs';
import type { TurnState } from './state';

export interface Startable {
  flow: Flow;
  /** `${flowId}:${triggerIndex}` of the first trigger that may start the flow. */
  claim: string;
  catchAll: boolean;
}

/**
 * Flows with no live run and a trigger still allowed to fire (`repeat: "always"`, or never
 * claimed). A flow may appear twice: by its phrases, and as a catch-all (`message: []`).
 */
export function startableFlows(state: TurnState): Startable[] {
  const live = new Set(state.session.runs.map((r) => r.flowId));
  const out: Startable[] = [];
  for (const flow of state.def.flows) {
    if (live.has(flow.id)) continue;
    const triggers = flow.on ?? [];
    const claimable = (catchAll: boolean) =>
      triggers.findIndex(
        (t, i) => (t.message.length === 0) === catchAll && (t.repeat === 'always' || state.session.claims[`${flow.id}:${i}`] === undefined),
      );
    const byPhrase = claimable(false);
    if (byPhrase >= 0) out.push({ flow, claim: `${flow.id}:${byPhrase}`, catchAll: false });
    const byDefault = claimable(true);
    if (byDefault >= 0) out.push({ flow, claim: `${flow.id}:${byDefault}`, catchAll: true });
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

  const holder = floorHolder(state);
  if (holder) {
    const holderScore = scores[holder.flowId] ?? 0;
    if (best && best.score >= START_SCORE && best.score >= holderScore + FLOOR_MARGIN) {
      suspend(state, holder);
      return startRun(state, best.s.flow, best.s.claim);
    }
    resume(holder);
    return holder;
  }

  if (best && best.score >= START_SCORE) return startRun(state, best.s.flow, best.s.claim);
  const suspended = mostRecentlySuspended(state);
  if (suspended) {
    resume(suspended);
    return suspended;
  }
  const catchAll = startable.find((s) => s.catchAll);
  if (catchAll) return startRun(state, catchAll.flow, catchAll.claim);
  return undefined;
}
