// What happened to each step in a turn (engine.md §3 and §4).

export type OutcomeKind = 'prompt' | 'collect' | 'say' | 'do' | 'if' | 'wait' | 'trigger' | 'idle';
export type OutcomeStatus = 'ok' | 'skipped' | 'failed' | 'deferred';

/** Stable outcome codes. */
export type OutcomeCode =
  | 'spoke'
  | 'asked'
  | 'question'
  | 'said'
  | 'collected'
  | 'already-known'
  | 'max-asks'
  | 'silent'
  | 'bad-value'
  | 'not-in-enum'
  | 'unknown-field'
  | 'step-loop'
  | 'missing-step'
  | 'duplicate-input'
  | 'stale-wake'
  | 'broken-wake'
  | 'action-ok'
  | 'action-skipped'
  | 'action-failed'
  | 'action-deferred'
  | 'branch'
  | 'waiting'
  | 'no-reply'
  | 'replied'
  | 'inline-delay'
  | 'event-arrived'
  | 'no-event'
  | 'started'
  | 'start-scheduled'
  | 'already-running'
  | 'hop-limit'
  | 'reset'
  | 'stay'
  | 'provider-unavailable'
  | 'provider-quota'
  | 'provider-auth'
  | 'provider-context'
  | 'provider-invalid';

export interface StepOutcome {
  runId?: string;
  flowId?: string;
  stepId?: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  code?: OutcomeCode;
  message?: string;
  detail?: unknown;
  /** ISO time a deferred step retries. */
  until?: string;
  /** ISO time of the outcome (the agent's clock). */
  at: string;
  llmCalls?: number;
}
