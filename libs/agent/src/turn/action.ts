// A `do` step runs its registered action (engine.md §6). The handler gets the idempotency key
// `${runId}:${stepId}:${visit}`; a deferred action runs the same visit, with the same key, on its
// wake. Nothing an action does throws out of the turn.
import { parseDuration } from '../clock/duration';
import type { ActionResult } from '../types/action';
import type { DoStep } from '../types/flow';
import type { Run } from '../types/session';
import { isPlainObject } from '../definition/json-checks';
import { goTo, nextTarget, flowOf } from './runs';
import { messageKey, pushMessage, recordOutcome, type TurnState } from './state';

export type DoStop = 'moved' | 'stopped';

export async function runAction(state: TurnState, run: Run, step: DoStep): Promise<DoStop> {
  const where = { runId: run.id, flowId: run.flowId, stepId: step.id, kind: 'do' as const };
  const key = messageKey(run);
  const flow = flowOf(state, run)!;
  const result = await callHandler(state, run, step, key);

  if ('ok' in result) {
    if (isPlainObject(result.data)) Object.assign(state.session.data, result.data);
    if (typeof result.spoke === 'string' && result.spoke !== '' && !state.input.silent) {
      pushMessage(state, result.spoke, 'verbatim', key, run);
      state.answered = true;
    } else if (result.spoke === true) {
      state.session.lastAssistantAt = state.nowIso;
      state.answered = true;
    }
    recordOutcome(state, { ...where, status: 'ok', code: 'action-ok', detail: { key } }, run);
    return goTo(state, run, nextTarget(flow, step)) ? 'moved' : 'stopped';
  }
  if ('skipped' in result) {
    recordOutcome(state, { ...where, status: 'skipped', code: 'action-skipped', message: result.skipped, detail: { key } }, run);
    return goTo(state, run, nextTarget(flow, step)) ? 'moved' : 'stopped';
  }
  if ('defer' in result) {
    const at = new Date(state.now.getTime() + parseDuration(result.defer));
    const until = at.toISOString();
    const wake = `${key}:defer:${at.getTime()}`;
    run.status = 'waiting';
    run.waiting = { key: wake, at: until, reason: 'defer' };
    state.schedule.push({ key: wake, at: until });
    recordOutcome(state, { ...where, status: 'deferred', code: 'action-deferred', until, detail: { key, ...(result.detail !== undefined ? { detail: result.detail } : {}) } }, run);
    return 'stopped';
  }
  recordOutcome(state, { ...where, status: 'failed', code: 'action-failed', message: result.failed, detail: { key } }, run);
  return goTo(state, run, step.onFail ?? nextTarget(flow, step)) ? 'moved' : 'stopped';
}

/** The handler's result, normalized: a throw, a bad shape or a bad `defer` is a failure. */
async function callHandler(state: TurnState, run: Run, step: DoStep, key: string): Promise<ActionResult> {
  const action = state.def.actions.get(step.do);
  if (!action) return { failed: `no action is registered as "${step.do}"` };
  let result: unknown;
  try {
    result = await action.handler(structuredClone(step.with ?? {}), {
      key,
      sessionId: state.session.id,
      context: state.input.context,
      data: { ...state.session.data },
      run: { ...run, asked: { ...run.asked }, visits: { ...run.visits }, outcomes: [...run.outcomes] },
      now: new Date(state.now),
    });
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  }
  if (!isPlainObject(result)) return { failed: `action "${step.do}" returned ${result === undefined ? 'nothing' : 'a non-object'}` };
  if (result.ok === true) return result as ActionResult;
  if (typeof result.skipped === 'string') return { skipped: result.skipped };
  if (typeof result.failed === 'string') return { failed: result.failed };
  if (result.defer !== undefined) {
    try {
      parseDuration(result.defer as string);
      return result as ActionResult;
    } catch (err) {
      return { failed: `action "${step.do}" deferred by a bad duration: ${(err as Error).message}` };
    }
  }
  return { failed: `action "${step.do}" returned an object that is not { ok }, { skipped }, { failed } or { defer }` };
}
