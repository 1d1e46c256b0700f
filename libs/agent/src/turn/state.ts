// Everything one turn accumulates before it becomes a TurnResult. One object, passed to every phase.
import type { History, Usage } from '../provider';
import type { StepOutcome } from '../types/outcome';
import type { Run, Session } from '../types/session';
import type { EndedRun, OutgoingMessage, ScheduledWake, TraceEntry, TurnInput } from '../types/turn';
import { type AgentDefinition, KEEP_OUTCOMES } from './definition';

/** Receives each round's text as it arrives (turnStream); absent for `turn`. */
export type DeltaSink = (delta: string) => void;

export interface TurnState {
  readonly def: AgentDefinition;
  readonly input: TurnInput;
  /** A private copy of the session; phases mutate it, the result returns it. */
  readonly session: Session;
  /** The turn's instant: every `at`, key and wake time derives from it. */
  readonly now: Date;
  /** `now` as an ISO string, computed once. */
  readonly nowIso: string;
  /** The message id, else the turn's time in ms: run ids and idle keys use it. */
  readonly triggerKey: string;
  /** The host's history plus this turn's message: what the model sees. */
  readonly history: History;
  readonly sink: DeltaSink | undefined;
  messages: OutgoingMessage[];
  outcomes: StepOutcome[];
  startedIds: string[];
  ended: EndedRun[];
  schedule: ScheduledWake[];
  trace: TraceEntry[];
  llmCalls: number;
  usage: Usage | undefined;
  /** One answer per message: set once a talk step or the idle speaker has spoken. */
  answered: boolean;
  /** Steps each run moved through in this turn (`step-loop`). */
  moves: Map<string, number>;
  /** Runs started by a chain (`then: { flow }`) that still need driving in this turn. */
  queue: Run[];
  /** Runs driven in this turn, in order: the first one left asking keeps the floor. */
  driven: Run[];
  /** Pending `afterMs` of each run's next message (short timer waits). */
  delays: Map<string, number>;
  /** Yes/no answers to the branch questions of the understand call, by `${stepId}:${index}`. */
  answers: Record<string, boolean>;
}

export function isoAt(state: TurnState): string {
  return state.nowIso;
}

/** Records an outcome on the turn, and on its run while the run lives. */
export function recordOutcome(state: TurnState, outcome: Omit<StepOutcome, 'at'>, run?: Run): StepOutcome {
  const full: StepOutcome = { ...outcome, at: isoAt(state) };
  state.outcomes.push(full);
  if (run) {
    run.outcomes.push(full);
    if (run.outcomes.length > KEEP_OUTCOMES) run.outcomes.splice(0, run.outcomes.length - KEEP_OUTCOMES);
  }
  return full;
}

export function addUsage(state: TurnState, usage: Usage | undefined): void {
  if (!usage) return;
  const sum: Usage = state.usage ?? { inputTokens: 0, outputTokens: 0 };
  sum.inputTokens += usage.inputTokens;
  sum.outputTokens += usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (sum.cachedInputTokens ?? 0) + usage.cachedInputTokens;
  }
  state.usage = sum;
}

/** The run's current visit number of its current step. */
export function visitOf(run: Run): number {
  return run.visits[run.stepId] ?? 1;
}

/** Queues a message; a run's pending short wait becomes its `afterMs`. */
export function pushMessage(state: TurnState, text: string, kind: 'ai' | 'verbatim', key: string, run?: Run): void {
  const delay = run ? state.delays.get(run.id) : undefined;
  if (run) state.delays.delete(run.id);
  state.messages.push({ text, kind, key, ...(delay !== undefined ? { afterMs: delay } : {}) });
  state.session.lastAssistantAt = isoAt(state);
}

export function messageKey(run: Run): string {
  return `${run.id}:${run.stepId}:${visitOf(run)}`;
}
