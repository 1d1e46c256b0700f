// Moving a run through its steps (engine.md §2 and §6) until a talk step needs to speak, the run
// must wait for the next message or a wake, or the run ends. Say steps on the way are sent at
// once; do, if and wait steps run as they are reached, even once the message has its answer.
import { isKnown } from '../definition/coerce';
import { isDoStep, isIfStep, isSayStep, isWaitStep, type TalkStep } from '../types/flow';
import type { Run } from '../types/session';
import { runAction } from './action';
import { DEFAULT_MAX_ASKS } from './definition';
import { holds } from './predicates';
import { advance, endRun, flowOf, goTo, nextTarget, stepOf } from './runs';
import { messageKey, pushMessage, recordOutcome, type TurnState } from './state';
import { enterWait } from './wait';

export type MoveStop =
  /** The talk step speaks now; `asks` are the pending fields still worth asking. */
  | { kind: 'speak'; step: TalkStep; asks: string[] }
  /** A talk step speaks (or judges its branches) on the next message. */
  | { kind: 'park' }
  /** The run waits for a wake (a wait step or a deferred action). */
  | { kind: 'wait' }
  /** The run ended, chained into another flow, or stays on its last step. */
  | { kind: 'ended' };

export function pendingOf(state: TurnState, step: TalkStep): string[] {
  return (step.collect ?? []).filter((slug) => !isKnown(state.session.data[slug]));
}

export async function move(state: TurnState, run: Run): Promise<MoveStop> {
  for (;;) {
    const step = stepOf(state, run);
    if (!step) {
      // The flow changed under a live run (a new agent version): nothing left to run here.
      endRun(state, run, 'failed', 'missing-step');
      recordOutcome(state, { runId: run.id, flowId: run.flowId, stepId: run.stepId, kind: 'prompt', status: 'failed', code: 'missing-step', message: `step "${run.stepId}" is not in flow "${run.flowId}"` });
      return { kind: 'ended' };
    }
    const where = { runId: run.id, flowId: run.flowId, stepId: step.id };
    const go = (moved: boolean): MoveStop | undefined => (moved ? undefined : stopOf(state, run));

    if (isSayStep(step)) {
      if (state.input.silent) {
        recordOutcome(state, { ...where, kind: 'say', status: 'skipped', code: 'silent' }, run);
      } else {
        pushMessage(state, step.say, 'verbatim', messageKey(run), run);
        recordOutcome(state, { ...where, kind: 'say', status: 'ok', code: 'said' }, run);
      }
      const stop = go(advance(state, run));
      if (stop) return stop;
      continue;
    }
    if (isDoStep(step)) {
      const stop = go((await runAction(state, run, step)) === 'moved');
      if (stop) return stop;
      continue;
    }
    if (isIfStep(step)) {
      const ok = holds(state, step.if);
      // `then` may be left out in JSON: the next step, as for every other step.
      const target = ok ? nextTarget(flowOf(state, run)!, step) : (step.else ?? 'end');
      recordOutcome(state, { ...where, kind: 'if', status: 'ok', code: 'branch', detail: { holds: ok, then: target } }, run);
      const stop = go(goTo(state, run, target));
      if (stop) return stop;
      continue;
    }
    if (isWaitStep(step)) {
      const stop = go(enterWait(state, run, step));
      if (stop) return stop;
      continue;
    }

    const talk = step as TalkStep;
    const collect = talk.collect ?? [];
    const pending = pendingOf(state, talk);
    if (collect.length > 0 && pending.length === 0) {
      recordOutcome(state, { ...where, kind: 'collect', ...(run.spoke ? { status: 'ok', code: 'collected' } : { status: 'skipped', code: 'already-known' }) }, run);
      const stop = go(advance(state, run));
      if (stop) return stop;
      continue;
    }

    if (pending.length > 0) {
      // Whatever was asked this turn gets its answer on the next message.
      if (state.answered) return { kind: 'park' };
      const maxAsks = talk.maxAsks ?? DEFAULT_MAX_ASKS;
      const asks = pending.filter((slug) => (run.asked[slug] ?? 0) < maxAsks);
      if (asks.length === 0) {
        recordOutcome(state, { ...where, kind: 'collect', status: 'skipped', code: 'max-asks', detail: { fields: pending } }, run);
        const stop = go(advance(state, run));
        if (stop) return stop;
        continue;
      }
      return { kind: 'speak', step: talk, asks };
    }

    // A talk step with nothing to collect speaks once, then moves on; with branches it waits
    // for the reply they judge.
    if (run.spoke) {
      if (talk.branches && talk.branches.length > 0) return { kind: 'park' };
      const stop = go(advance(state, run));
      if (stop) return stop;
      continue;
    }
    if (state.answered) return { kind: 'park' };
    return { kind: 'speak', step: talk, asks: [] };
  }
}

/** Why a run stopped moving: it waits for a wake, stays on its last step, or left the session. */
function stopOf(state: TurnState, run: Run): MoveStop {
  if (!state.session.runs.includes(run)) return { kind: 'ended' };
  if (run.status === 'waiting') return { kind: 'wait' };
  return { kind: 'ended' };
}

