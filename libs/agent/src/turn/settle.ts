// Settle (engine.md §3 step 4): write what a speak call produced. The message, then the
// envelope values (checked and coerced), then the tool data patches as given, in call order.
import { coerceValues } from '../definition/coerce';
import type { Run } from '../types/session';
import type { StepOutcome } from '../types/outcome';
import { planFailure } from './failures';
import { endRun } from './runs';
import { pushMessage, recordOutcome, type TurnState, visitOf } from './state';
import type { SpeakResult } from './speak';

type Where = Pick<StepOutcome, 'runId' | 'flowId' | 'stepId' | 'kind'>;

/** Writes envelope values and tool patches. Both are kept even when the call failed later:
 * a tool that ran (a booking made) must not run again on the retry. */
export function writeData(state: TurnState, result: SpeakResult, where: Where, run?: Run): void {
  if (result.message !== undefined) writeReported(state, result.values, where, run);
  for (const patch of result.patches) Object.assign(state.session.data, patch);
}

/** Values the model reported (understand or speak envelope): coerced; drops become outcomes. */
export function writeReported(state: TurnState, reported: Record<string, unknown>, where: Where, run?: Run): void {
  const { values, dropped } = coerceValues(state.def.fields, reported);
  Object.assign(state.session.data, values);
  for (const drop of dropped) {
    recordOutcome(
      state,
      { ...where, status: 'skipped', code: drop.code, message: `value for "${drop.slug}" dropped`, detail: { field: drop.slug, value: drop.value } },
      run,
    );
  }
}

export function sayMessage(state: TurnState, text: string, kind: 'ai' | 'verbatim', key: string, run?: Run): void {
  pushMessage(state, text, kind, key, run);
  state.answered = true;
}

/** A failed speak call of a talk step: deferred on the ladder with a retry wake, or the run ends. */
export function settleFailure(state: TurnState, run: Run, result: SpeakResult, where: Where): void {
  const error = result.error!;
  const failures = (run.failures ?? 0) + 1;
  const plan = planFailure(error, failures, state.now);
  const detail = { kind: error.kind, attempt: failures };
  if (plan.effect === 'end') {
    recordOutcome(state, { ...where, status: 'failed', code: plan.code, message: error.message, detail, llmCalls: result.calls }, run);
    endRun(state, run, 'failed', plan.code);
    return;
  }
  const until = plan.at.toISOString();
  const key = `${run.id}:${run.stepId}:${visitOf(run)}:retry:${plan.at.getTime()}`;
  run.failures = failures;
  run.status = 'waiting';
  run.waiting = { key, at: until, reason: 'retry' };
  state.schedule.push({ key, at: until });
  recordOutcome(state, { ...where, status: 'deferred', code: plan.code, message: error.message, detail, until, llmCalls: result.calls }, run);
}
