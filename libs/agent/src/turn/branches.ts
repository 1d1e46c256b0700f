// Branches on a talk step (engine.md §6): judged on the customer message that reaches the step
// while it asks. `if` by code, `when` by the understand call's yes/no answer; a branch with both
// needs both; the first that holds wins (`branch`). When none holds, a step that collects keeps
// collecting and a step that only spoke moves on.
import { isTalkStep } from '../types/flow';
import type { Run } from '../types/session';
import { pendingOf } from './move';
import { holds } from './predicates';
import { advance, goTo, kindOf, stepOf } from './runs';
import { recordOutcome, type TurnState } from './state';

/** Returns false when the run stopped moving (ended, chained or stayed). */
export function judgeBranches(state: TurnState, run: Run): boolean {
  const step = stepOf(state, run);
  if (!step || !isTalkStep(step) || !step.branches?.length || !run.spoke) return true;
  const index = step.branches.findIndex(
    (b, i) => (b.if === undefined || holds(state, b.if)) && (b.when === undefined || state.answers[`${step.id}:${i}`] === true),
  );
  if (index >= 0) {
    const branch = step.branches[index];
    recordOutcome(state, { runId: run.id, flowId: run.flowId, stepId: step.id, kind: kindOf(step), status: 'ok', code: 'branch', detail: { index, then: branch.then } }, run);
    return goTo(state, run, branch.then);
  }
  if ((step.collect ?? []).length === 0 || pendingOf(state, step).length === 0) return advance(state, run);
  return true;
}
