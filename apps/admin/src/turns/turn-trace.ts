// The shape of GET /v1/admin/turns/:id (the engine's TraceEntry and StepOutcome, as stored).

export interface ModelTraceEntry {
  type: 'model';
  call: string;
  round: number;
  ms: number;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
  error?: { kind: string; message: string };
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
  trace?: TraceEntry[];
  outcomes?: OutcomeLine[];
}

/** Where an outcome happened, as the flow editor names it: `flow › step`. */
export function outcomePlace(o: OutcomeLine): string {
  if (o.flowId && o.stepId) return `${o.flowId} › ${o.stepId}`;
  return o.flowId ?? o.stepId ?? o.kind;
}
