// Moving a run through its steps (engine.md §2) until a talk step needs to speak, the run must
// wait for the next message, or the run ends. Say steps on the way are sent at once.
import { isKnown } from '../definition/coerce';
import { isSayStep, type TalkStep } from '../types/flow';
import type { Run } from '../types/session';
import { DEFAULT_MAX_ASKS } from './definition';
import { advance, endRun, stepOf } from './runs';
import { isoAt, messageKey, recordOutcome, type TurnState } from './state';

export type MoveStop =
  /** The talk step speaks now; `asks` are the pending fields still worth asking. */
  | { kind: 'speak'; step: TalkStep; asks: string[] }
  /** A talk step speaks on the next message (this message already has its answer). */
  | { kind: 'park' }
  | { kind: 'ended' };

export function pendingOf(state: TurnState, step: TalkStep): string[] {
  return (step.collect ?? []).filter((slug) => !isKnown(state.session.data[slug]));
}

export function move(state: TurnState, run: Run): MoveStop {
  for (;;) {
    const step = stepOf(state, run);
    if (!step) {
      // The flow changed under a live run (a new agent version): nothing left to run here.
      endRun(state, run, 'failed', 'missing-step');
      recordOutcome(state, { runId: run.id, flowId: run.flowId, stepId: run.stepId, kind: 'prompt', status: 'failed', code: 'missing-step', message: `step "${run.stepId}" is not in flow "${run.flowId}"` });
      return { kind: 'ended' };
    }
    const where = { runId: run.id, flowId: run.flowId, stepId: step.id };

    if (isSayStep(step)) {
      state.messages.push({ text: step.say, kind: 'verbatim', key: messageKey(run) });
      state.session.lastAssistantAt = isoAt(state);
      recordOutcome(state, { ...where, kind: 'say', status: 'ok', code: 'said' }, run);
      if (!advance(state, run)) return { kind: 'ended' };
      continue;
    }

    const talk = step as TalkStep;
    const collect = talk.collect ?? [];
    const pending = pendingOf(state, talk);
    if (collect.length > 0 && pending.length === 0) {
      recordOutcome(state, { ...where, kind: 'collect', ...(run.spoke ? { status: 'ok', code: 'collected' } : { status: 'skipped', code: 'already-known' }) }, run);
      if (!advance(state, run)) return { kind: 'ended' };
      continue;
    }

    if (pending.length > 0) {
      // Whatever was asked this turn gets its answer on the next message.
      if (state.answered) return { kind: 'park' };
      const maxAsks = talk.maxAsks ?? DEFAULT_MAX_ASKS;
      const asks = pending.filter((slug) => (run.asked[slug] ?? 0) < maxAsks);
      if (asks.length === 0) {
        recordOutcome(state, { ...where, kind: 'collect', status: 'skipped', code: 'max-asks', detail: { fields: pending } }, run);
        if (!advance(state, run)) return { kind: 'ended' };
        continue;
      }
      return { kind: 'speak', step: talk, asks };
    }

    // A talk step with nothing to collect speaks once, then moves on.
    if (run.spoke) {
      if (!advance(state, run)) return { kind: 'ended' };
      continue;
    }
    if (state.answered) return { kind: 'park' };
    return { kind: 'speak', step: talk, asks: [] };
  }
}

