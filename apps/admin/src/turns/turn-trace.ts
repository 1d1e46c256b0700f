// The shape of GET /v1/admin/turns/:id (the engine's TraceEntry and StepOutcome, as stored).

export interface ModelTraceEntry {
  type: 'model';
  call: string;
  round: number;
  ms: number;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
  error?: { kind: string; message: string };
  /** The run and step the call spoke for (none: the understand call or the idle speaker). */
  spentBy?: { runId: string; flowId: string; stepId: string };
  /** What the call cost, in micro-units (turns from before costs were kept have none). */
  costMicros?: number;
  /** The model had no price: the call counts 0. */
  unpriced?: true;
}

export interface ToolTraceEntry {
  type: 'tool';
  round: number;
  index: number;
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  gate: 'ok' | 'unavailable' | 'invalid' | 'denied' | 'threw';
  result: string;
  ms: number;
}

export type TraceEntry = ModelTraceEntry | ToolTraceEntry;

export interface OutcomeLine {
  flowId?: string;
  stepId?: string;
  kind: string;
  status: string;
  code?: string;
  message?: string;
  at: string;
}

export interface TurnDetail {
  id: string;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  queueWaitMs: number;
  modelMs: number;
  toolsMs: number;
  commitMs: number;
  totalMs: number;
  /** The turn's cost in micros, a decimal string (a bigint on the server). */
  costMicros?: string;
  unpricedCalls?: number;
  trace?: TraceEntry[];
  outcomes?: OutcomeLine[];
}

/** Where an outcome happened, as the flow editor names it: `flow › step`. */
export function outcomePlace(o: OutcomeLine): string {
  if (o.flowId && o.stepId) return `${o.flowId} › ${o.stepId}`;
  return o.flowId ?? o.stepId ?? o.kind;
}

/** Who spent a model call, as the cost roll-ups name it. */
export function spentByLabel(e: ModelTraceEntry): string {
  if (e.call === 'understand') return 'understand';
  return e.spentBy ? `${e.spentBy.flowId} › ${e.spentBy.stepId}` : 'idle speaker';
}
