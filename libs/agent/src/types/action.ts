// Registered actions and conditions (engine.md §6): back-office code that `do` steps run and
// that predicates name. Registered with `f.action()` / `f.condition()` or passed to `f.agent()`.
import type { Run } from './session';
import type { StructuredSchema } from './tool';

export interface ActionCtx<C = unknown, D = unknown> {
  /** `${runId}:${stepId}:${visit}`: the same on a deferred re-run, so the action can be idempotent. */
  key: string;
  sessionId: string;
  context: C;
  /** The session's fields when the step runs. */
  data: Partial<D>;
  run: Run;
  now: Date;
}

export type ActionResult<D = unknown> =
  /** Done. `spoke: "text"` sends that text (verbatim, with the step's key); `spoke: true` says the action messaged the customer itself. */
  | { ok: true; spoke?: string | boolean; data?: Partial<D> }
  /** Nothing to do (`action-skipped`); the run goes on to `then`. */
  | { skipped: string }
  /** Failed (`action-failed`); the run goes to `onFail`, else `then`. */
  | { failed: string }
  /** Not now: the run parks and the same visit runs again, with the same key, after `defer` (`action-deferred`). */
  | { defer: string; detail?: unknown };

export interface Action<C = unknown, D = unknown> {
  name: string;
  /** A JSON Schema object the step's `with` must satisfy; checked when the agent is built. */
  params?: StructuredSchema;
  handler(params: Record<string, unknown>, ctx: ActionCtx<C, D>): ActionResult<D> | Promise<ActionResult<D>>;
}

export interface ConditionCtx<C = unknown, D = unknown> {
  sessionId: string;
  context: C;
  data: Partial<D>;
  now: Date;
}

/** A named predicate for `if` steps and branches; must be synchronous and free of side effects. */
export interface Condition<C = unknown, D = unknown> {
  name: string;
  test(ctx: ConditionCtx<C, D>): boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous lists, as AnyTool
export type AnyAction = Action<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous lists, as AnyTool
export type AnyCondition = Condition<any, any>;
