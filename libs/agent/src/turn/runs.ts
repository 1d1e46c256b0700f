// A run's life: start, step to step, suspend, resume, end. Pure bookkeeping on the session.
import { type Flow, isSayStep, type Step } from '../types/flow';
import type { Run } from '../types/session';
import type { EndReason } from '../types/turn';
import type { OutcomeCode } from '../types/outcome';
import { STEP_LOOP_LIMIT } from './definition';
import { isoAt, recordOutcome, type TurnState } from './state';

export function flowOf(state: TurnState, run: Run): Flow | undefined {
  return state.def.flowById.get(run.flowId);
}

export function stepOf(state: TurnState, run: Run): Step | undefined {
  return flowOf(state, run)?.steps.find((s) => s.id === run.stepId);
}

export function startRun(state: TurnState, flow: Flow, claim: string | undefined): Run {
  const first = flow.steps[0];
  const run: Run = {
    id: `${flow.id}#${state.triggerKey}`,
    flowId: flow.id,
    stepId: first.id,
    status: 'running',
    asked: {},
    visits: { [first.id]: 1 },
    startedAt: isoAt(state),
    outcomes: [],
  };
  if (claim !== undefined && state.session.claims[claim] === undefined) state.session.claims[claim] = isoAt(state);
  state.session.runs.push(run);
  state.startedIds.push(run.id);
  return run;
}

export function endRun(state: TurnState, run: Run, reason: EndReason, code?: OutcomeCode): void {
  const at = state.session.runs.indexOf(run);
  if (at >= 0) state.session.runs.splice(at, 1);
  const { waiting: _waiting, ...rest } = run;
  state.ended.push({ ...rest, reason, ...(code ? { code } : {}) });
}

/**
 * Moves the run past its current step: to `then`, else the next step; `end` or past the last
 * step ends it. Returns false when the run ended (completed, or `step-loop`).
 */
export function advance(state: TurnState, run: Run): boolean {
  const flow = flowOf(state, run);
  const step = stepOf(state, run);
  if (!flow || !step) {
    endRun(state, run, 'completed');
    return false;
  }
  const index = flow.steps.indexOf(step);
  const target = step.then ?? flow.steps[index + 1]?.id ?? 'end';
  const next = target === 'end' ? undefined : flow.steps.find((s) => s.id === target);
  if (!next) {
    endRun(state, run, 'completed');
    return false;
  }
  const moves = (state.moves.get(run.id) ?? 0) + 1;
  state.moves.set(run.id, moves);
  if (moves >= STEP_LOOP_LIMIT) {
    recordOutcome(
      state,
      { runId: run.id, flowId: run.flowId, stepId: next.id, kind: kindOf(next), status: 'failed', code: 'step-loop', message: `the run moved through ${STEP_LOOP_LIMIT} steps in one turn` },
    );
    endRun(state, run, 'step-loop', 'step-loop');
    return false;
  }
  run.stepId = next.id;
  run.visits[next.id] = (run.visits[next.id] ?? 0) + 1;
  run.spoke = false;
  delete run.failures;
  return true;
}

export function suspend(state: TurnState, run: Run): void {
  run.status = 'suspended';
  run.suspendedAt = isoAt(state);
  // A suspended run's retry wake goes stale: it will speak again when it resumes.
  delete run.waiting;
}

/**
 * The run takes this message. A step that already spoke opens a new visit, so the reply to the
 * answer gets its own message key.
 */
export function resume(run: Run): void {
  run.status = 'running';
  delete run.suspendedAt;
  delete run.waiting;
  if (run.spoke) run.visits[run.stepId] = (run.visits[run.stepId] ?? 0) + 1;
}

export function kindOf(step: Step): 'prompt' | 'collect' | 'say' {
  if (isSayStep(step)) return 'say';
  return step.collect && step.collect.length > 0 ? 'collect' : 'prompt';
}

/** Runs that hold the floor: the asking run, or the run deferred while it held it. */
export function floorHolder(state: TurnState): Run | undefined {
  return state.session.runs.find((r) => r.status === 'asking') ?? state.session.runs.find((r) => r.status === 'waiting');
}

export function mostRecentlySuspended(state: TurnState): Run | undefined {
  let best: Run | undefined;
  for (const run of state.session.runs) {
    if (run.status !== 'suspended') continue;
    if (!best || (run.suspendedAt ?? '') >= (best.suspendedAt ?? '')) best = run;
  }
  return best;
}
