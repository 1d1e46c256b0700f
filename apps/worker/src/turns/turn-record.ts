import type { StepOutcome, TurnResult } from '@falai/agent';

// What a Turn row stores about usage and time, derived from the engine's TurnResult.

export interface TurnUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  outcomeCodes: string[];
  outcomes: StepOutcome[];
  trace: TurnResult['trace'];
  /** Time spent in model calls and in tool handlers, from the trace. */
  modelMs: number;
  toolsMs: number;
  /** Runs the turn completed: the dashboards' resolved conversations. Absent = 0. */
  completedRuns?: number;
}

export function turnUsage(result: TurnResult): TurnUsage {
  let modelMs = 0;
  let toolsMs = 0;
  for (const entry of result.trace ?? []) {
    if (entry.type === 'model') modelMs += entry.ms;
    else toolsMs += entry.ms;
  }
  return {
    llmCalls: result.llmCalls,
    inputTokens: result.usage?.inputTokens ?? 0,
    outputTokens: result.usage?.outputTokens ?? 0,
    cachedInputTokens: result.usage?.cachedInputTokens ?? 0,
    outcomeCodes: distinctCodes(result.outcomes),
    outcomes: result.outcomes,
    trace: result.trace ?? [],
    modelMs: Math.round(modelMs),
    toolsMs: Math.round(toolsMs),
    completedRuns: result.ended.filter((r) => r.reason === 'completed').length,
  };
}

/** Outcome codes in first-seen order, each once; the dashboards filter turns by them. */
export function distinctCodes(outcomes: readonly StepOutcome[]): string[] {
  return [...new Set(outcomes.flatMap((o) => (o.code ? [o.code] : [])))];
}

/** A run that ended `failed` because the provider refused for good (auth, quota, context, invalid). */
export function failedForGood(result: TurnResult): string | undefined {
  const ended = result.ended.find((r) => r.reason === 'failed' && r.code?.startsWith('provider-'));
  if (ended) return ended.code;
  const failed = result.outcomes.find((o) => o.status === 'failed' && o.code?.startsWith('provider-'));
  return failed?.code;
}

/** The usage of a turn that ran no engine: one outcome, `llmCalls` calls that failed (no tokens, no trace). */
export function outcomeUsage(outcome: StepOutcome, llmCalls = 0): TurnUsage {
  return { llmCalls, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, outcomeCodes: outcome.code ? [outcome.code] : [], outcomes: [outcome], trace: [], modelMs: 0, toolsMs: 0 };
}
