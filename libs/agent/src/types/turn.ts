// A turn's input and its plan (engine.md §3).
import type { CallKind, History, ProviderErrorKind, Usage } from '../provider';
import type { StepOutcome } from './outcome';
import type { Run, Session } from './session';

export interface TurnInput<C = unknown, D = unknown> {
  sessionId: string;
  /** The customer's message. Absent for a wake. */
  message?: string;
  /** The message id; a replayed id among the last 50 is ignored (`duplicate-input`). */
  id?: string;
  /** The saved session blob; else the store's; else a new one. */
  session?: Session;
  /** The host's history before this message. The engine never stores it. */
  history?: History;
  context?: C;
  /** Field values the host already knows, written as given before the turn runs. */
  data?: Partial<D>;
  /** A wake key from an earlier `schedule[]`. */
  wake?: string;
  /** An event the host reports: runs waiting on it go on, flows with an `event` trigger start. */
  event?: string;
  /** The event's or start's idempotency key (required with `event`). */
  key?: string;
  /**
   * The host sends nothing this turn (a person has the conversation): no speak call and no
   * message; do, if and wait steps still run, talk steps wait, say steps are skipped (`silent`).
   */
  silent?: boolean;
  /** Starts a flow by hand; `key` makes the start idempotent and names the run. */
  start?: { flow: string; key: string };
}

export interface OutgoingMessage {
  text: string;
  /** `ai`: written by the model; `verbatim`: a say step or fixed question, sent word for word. */
  kind: 'ai' | 'verbatim';
  /** `${runId}:${stepId}:${visit}` or `idle:${triggerKey}`: stable across replays. */
  key: string;
  /** Milliseconds the host waits, after sending the previous message, before sending this one (a short wait step). */
  afterMs?: number;
}

export type EndReason = 'completed' | 'failed' | 'step-loop';

export type EndedRun = Run & { reason: EndReason; code?: string };

export interface ScheduledWake {
  key: string;
  /** ISO time. */
  at: string;
}

/** The run and step a speak call spoke for; absent on the understand call and the idle speaker. */
export interface SpentBy {
  runId: string;
  flowId: string;
  stepId: string;
}

export interface ModelTrace {
  type: 'model';
  call: CallKind;
  round: number;
  ms: number;
  usage?: Usage;
  /** Who spent the call, so its cost can be attributed to a flow's step. */
  spentBy?: SpentBy;
  error?: { kind: ProviderErrorKind; message: string };
}

export type ToolGate = 'ok' | 'unavailable' | 'invalid' | 'denied' | 'threw';

export interface ToolTrace {
  type: 'tool';
  round: number;
  index: number;
  /** The history item id, `call-<round>-<index>`. */
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  gate: ToolGate;
  /** The text the model read. */
  result: string;
  ms: number;
}

export type TraceEntry = ModelTrace | ToolTrace;

export interface TurnResult {
  session: Session;
  /** False when nothing happened that must be saved (`duplicate-input`, `stale-wake`). */
  changed: boolean;
  messages: OutgoingMessage[];
  /** Every model call made, failed ones included. */
  llmCalls: number;
  /** Summed over every completed call; absent when nothing was counted. */
  usage?: Usage;
  outcomes: StepOutcome[];
  started: Run[];
  ended: EndedRun[];
  schedule: ScheduledWake[];
  /** What happened inside the turn, for transcripts and latency splits. Never fed to the model. */
  trace: TraceEntry[];
}

export type TurnChunk = { delta: string } | { done: true; result: TurnResult };
