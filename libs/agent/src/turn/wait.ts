// Wait steps (engine.md §6): a timer parks the run with a wake `${runId}:${stepId}:${atMs}`; an
// event wait parks it until `turn({ event })` or its `upTo`. A timer of 10 s or less, with no
// `else`, followed by a say or talk step is no wake: it becomes that message's `afterMs`.
import { intoBusinessHours } from '../clock/business-hours';
import { parseDuration } from '../clock/duration';
import { isSayStep, isTalkStep, isWaitStep, type WaitStep } from '../types/flow';
import type { Run } from '../types/session';
import { DEFAULT_EVENT_WAIT, INLINE_DELAY_MS } from './definition';
import { advance, flowOf, goTo, nextTarget, stepOf } from './runs';
import { recordOutcome, type TurnState } from './state';

/** True when the run moved on (an inline delay); false when it parks on a wake. */
export function enterWait(state: TurnState, run: Run, step: WaitStep): boolean {
  const where = { runId: run.id, flowId: run.flowId, stepId: step.id, kind: 'wait' as const };
  if (typeof step.wait === 'string') {
    const ms = parseDuration(step.wait);
    // A short wait with an `else` waits for a reply: that needs a real wake, however short.
    if (ms <= INLINE_DELAY_MS && step.else === undefined && !step.businessHours && speaksNext(state, run, step)) {
      state.delays.set(run.id, (state.delays.get(run.id) ?? 0) + ms);
      recordOutcome(state, { ...where, status: 'ok', code: 'inline-delay', detail: { afterMs: ms } }, run);
      return advance(state, run);
    }
    let atMs = state.now.getTime() + ms;
    if (step.businessHours) atMs = intoBusinessHours(atMs, step.businessHours);
    park(state, run, step, atMs, 'timer');
    return false;
  }
  const atMs = state.now.getTime() + parseDuration(step.wait.upTo ?? DEFAULT_EVENT_WAIT);
  park(state, run, step, atMs, 'event', step.wait.event);
  return false;
}

function park(state: TurnState, run: Run, step: WaitStep, atMs: number, reason: 'timer' | 'event', event?: string): void {
  const until = new Date(atMs).toISOString();
  const key = `${run.id}:${step.id}:${atMs}`;
  run.status = 'waiting';
  run.waiting = { key, at: until, reason, ...(event !== undefined ? { event } : {}) };
  state.schedule.push({ key, at: until });
  recordOutcome(state, { runId: run.id, flowId: run.flowId, stepId: step.id, kind: 'wait', status: 'ok', code: 'waiting', until, ...(event !== undefined ? { detail: { event } } : {}) }, run);
}

/** The step the wait leads to is a say or talk step of the same flow. */
function speaksNext(state: TurnState, run: Run, step: WaitStep): boolean {
  const flow = flowOf(state, run);
  if (!flow) return false;
  const target = nextTarget(flow, step);
  const next = typeof target === 'string' ? flow.steps.find((s) => s.id === target) : undefined;
  return next !== undefined && (isSayStep(next) || isTalkStep(next));
}

/**
 * A wait ends: a timer's wake (`no-reply` → then), a customer reply (`replied` → else), an
 * event (`event-arrived` → then), or an event wait's `upTo` (`no-event` → else). Returns true
 * when the run is on a step to drive.
 */
export function leaveWait(state: TurnState, run: Run, how: 'no-reply' | 'replied' | 'event-arrived' | 'no-event'): boolean {
  const step = stepOf(state, run);
  const flow = flowOf(state, run);
  delete run.waiting;
  run.status = 'running';
  // The step is gone or is no longer a wait (a new agent version): let `move` run or end it.
  if (!step || !flow || !isWaitStep(step)) return true;
  recordOutcome(state, { runId: run.id, flowId: run.flowId, stepId: step.id, kind: 'wait', status: 'ok', code: how }, run);
  const takesThen = how === 'no-reply' || how === 'event-arrived';
  return goTo(state, run, takesThen ? nextTarget(flow, step) : (step.else ?? 'end'));
}
