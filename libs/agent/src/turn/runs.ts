// A run's life: start, step to step, chain, suspend, resume, end. Pure bookkeeping on the session.
import { type Flow, isDoStep, isIfStep, isSayStep, isWaitStep, type Step, type StepTarget } from '../types/flow';
import type { OutcomeCode, OutcomeKind } from '../types/outcome';
import type { Run } from '../types/session';
import type { EndReason } from '../types/turn';
import { HOP_LIMIT, STEP_LOOP_LIMIT } from './definition';
import { isoAt, recordOutcome, type TurnState } from './state';

export function flowOf(state: TurnState, run: Run): Flow | undefined {
  return state.def.flowById.get(run.flowId);
}

export function stepOf(state: TurnState, run: Run): Step | undefined {
  return flowOf(state, run)?.steps.find((s) => s.id === run.stepId);
}

export interface StartOptions {
  /** `${flowId}:${triggerIndex}` of the trigger that starts it, claimed now. */
  claim?: string;
  /** Renew the claim's time (a cooldown trigger counts from its last start). */
  renew?: boolean;
  /** The trigger key of the run id; default the turn's. */
  key?: string;
  hop?: number;
  side?: boolean;
}

export function startRun(state: TurnState, flow: Flow, claim: string | undefined, options: StartOptions = {}): Run {
  const first = flow.steps[0];
  const hop = options.hop ?? 0;
  const run: Run = {
    id: `${flow.id}#${options.key ?? state.triggerKey}${hop > 0 ? `/${hop}` : ''}`,
    flowId: flow.id,
    stepId: first.id,
    status: 'running',
    asked: {},
    visits: { [first.id]: 1 },
    startedAt: isoAt(state),
    outcomes: [],
    ...(hop > 0 ? { hop } : {}),
    ...(options.side ? { side: true } : {}),
  };
  const key = claim ?? options.claim;
  if (key !== undefined && (state.session.claims[key] === undefined || options.renew)) state.session.claims[key] = isoAt(state);
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

/** Where a step goes when it is done: its `then`, else the next step, else the end. */
export function nextTarget(flow: Flow, step: Step): StepTarget {
  if (step.then !== undefined) return step.then;
  return flow.steps[flow.steps.indexOf(step) + 1]?.id ?? 'end';
}

/**
 * Moves the run past its current step: to `then`, else the next step; `end` or past the last
 * step ends it. Returns false when the run stopped moving (ended, chained, or stays parked).
 */
export function advance(state: TurnState, run: Run): boolean {
  const flow = flowOf(state, run);
  const step = stepOf(state, run);
  if (!flow || !step) {
    endRun(state, run, 'completed');
    return false;
  }
  return goTo(state, run, nextTarget(flow, step));
}

/** Moves the run to a target: a step id, `end`, or `{ flow }`. Same return as `advance`. */
export function goTo(state: TurnState, run: Run, target: StepTarget): boolean {
  if (typeof target !== 'string') {
    chain(state, run, target.flow);
    return false;
  }
  const flow = flowOf(state, run);
  const next = target === 'end' || !flow ? undefined : flow.steps.find((s) => s.id === target);
  if (!next) {
    complete(state, run);
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

/**
 * The run finished its last step. `onEnd: "stay"` keeps it on that step, holding the floor, to
 * run the step again on the next message; `"reset"` ends it and forgets the flow's fields and
 * claims, so it can start again; `"end"` (default) ends it.
 */
function complete(state: TurnState, run: Run): void {
  const flow = flowOf(state, run);
  const where = { runId: run.id, flowId: run.flowId, stepId: run.stepId, kind: 'trigger' as const };
  if (flow?.onEnd === 'stay') {
    run.status = 'asking';
    run.stayed = true;
    recordOutcome(state, { ...where, status: 'ok', code: 'stay' }, run);
    return;
  }
  if (flow?.onEnd === 'reset') {
    const cleared = collectedBy(flow);
    for (const slug of cleared) delete state.session.data[slug];
    for (const claim of Object.keys(state.session.claims)) if (claim.startsWith(`${flow.id}:`)) delete state.session.claims[claim];
    recordOutcome(state, { ...where, status: 'ok', code: 'reset', detail: { fields: cleared } }, run);
  }
  endRun(state, run, 'completed');
}

function collectedBy(flow: Flow): string[] {
  const slugs = new Set<string>();
  for (const step of flow.steps) for (const slug of (step as { collect?: string[] }).collect ?? []) slugs.add(slug);
  return [...slugs];
}

/** `then: { flow }`: the run completes and the other flow starts one hop further, unless that is hop 5. */
function chain(state: TurnState, run: Run, flowId: string): void {
  const hop = (run.hop ?? 0) + 1;
  const where = { runId: run.id, flowId: run.flowId, stepId: run.stepId, kind: 'trigger' as const };
  endRun(state, run, 'completed');
  const next = state.def.flowById.get(flowId);
  if (hop >= HOP_LIMIT) {
    recordOutcome(state, { ...where, status: 'failed', code: 'hop-limit', message: `a chain of flows may not reach hop ${HOP_LIMIT}`, detail: { flow: flowId, hop } });
    return;
  }
  if (!next || state.session.runs.some((r) => r.flowId === flowId)) {
    recordOutcome(state, { ...where, status: 'skipped', code: next ? 'already-running' : 'missing-step', detail: { flow: flowId } });
    return;
  }
  const started = startRun(state, next, undefined, { key: run.id.slice(run.id.indexOf('#') + 1).replace(/\/\d+$/, ''), hop });
  recordOutcome(state, { runId: started.id, flowId, kind: 'trigger', status: 'ok', code: 'started', detail: { from: run.flowId, hop } });
  state.queue.push(started);
}

export function suspend(state: TurnState, run: Run): void {
  run.status = 'suspended';
  run.suspendedAt = isoAt(state);
  // A suspended run's wake goes stale: it will speak again when it resumes.
  delete run.waiting;
}

/**
 * The run takes this message. A step that already spoke opens a new visit, so the reply to the
 * answer gets its own message key; a run that stayed on its last step runs that step again.
 */
export function resume(run: Run): void {
  run.status = 'running';
  delete run.suspendedAt;
  delete run.waiting;
  if (run.spoke || run.stayed) run.visits[run.stepId] = (run.visits[run.stepId] ?? 0) + 1;
  if (run.stayed) {
    run.spoke = false;
    delete run.stayed;
  }
}

export function kindOf(step: Step): Exclude<OutcomeKind, 'idle' | 'trigger'> {
  if (isSayStep(step)) return 'say';
  if (isDoStep(step)) return 'do';
  if (isIfStep(step)) return 'if';
  if (isWaitStep(step)) return 'wait';
  return step.collect && step.collect.length > 0 ? 'collect' : 'prompt';
}

/** The run that holds the floor: the asking run, or the run deferred on a provider retry while it held it. */
export function floorHolder(state: TurnState): Run | undefined {
  return (
    state.session.runs.find((r) => r.status === 'asking') ??
    state.session.runs.find((r) => r.status === 'waiting' && (r.waiting?.reason ?? 'retry') === 'retry')
  );
}

export function mostRecentlySuspended(state: TurnState): Run | undefined {
  let best: Run | undefined;
  for (const run of state.session.runs) {
    if (run.status !== 'suspended') continue;
    if (!best || (run.suspendedAt ?? '') >= (best.suspendedAt ?? '')) best = run;
  }
  return best;
}
