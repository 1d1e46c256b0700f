import type { TraceEntry } from '@falai/agent';
import { callCostMicros, type TokenPrice } from '@switchboard/db';

/** Who spent a call: a flow's step (speak for a run), the understand call, or the idle speaker. */
export type CostPart = 'step' | 'understand' | 'idle';

/** A model call's trace entry as stored: with its cost, and `unpriced` when its model has no price. */
export type CostedTraceEntry = TraceEntry & { costMicros?: number; unpriced?: true };

/** The turn's calls summed per who spent them: one UsageCostDaily upsert each. */
export interface CostLine {
  provider: string;
  model: string;
  part: CostPart;
  flowId: string;
  stepId: string;
  llmCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costMicros: bigint;
  unpricedCalls: number;
}

export interface TurnCost {
  costMicros: bigint;
  unpricedCalls: number;
  trace: CostedTraceEntry[];
  /** Sorted by (part, flowId, stepId), so concurrent commits lock shared roll-up rows in one order. */
  lines: CostLine[];
}

/**
 * Prices each model call of a turn (all made with the turn's provider and model) at `price`,
 * the price in force at commit; undefined prices every call at 0 and flags it unpriced. A failed
 * call reported no usage and costs 0. The turn's cost is the sum of its calls' (each rounded once).
 */
export function turnCost(trace: readonly TraceEntry[], provider: { name: string; model: string }, price: TokenPrice | undefined): TurnCost {
  const lines = new Map<string, CostLine>();
  let costMicros = 0n;
  let unpricedCalls = 0;
  const costed = trace.map((entry): CostedTraceEntry => {
    if (entry.type !== 'model') return entry;
    const usage = entry.usage ?? { inputTokens: 0, outputTokens: 0 };
    const cost = price ? callCostMicros(usage, price) : 0n;
    costMicros += cost;
    if (!price) unpricedCalls += 1;
    const part: CostPart = entry.call === 'understand' ? 'understand' : entry.spentBy ? 'step' : 'idle';
    const flowId = part === 'step' ? entry.spentBy!.flowId : '';
    const stepId = part === 'step' ? entry.spentBy!.stepId : '';
    const key = JSON.stringify([part, flowId, stepId]);
    const line = lines.get(key) ?? { provider: provider.name, model: provider.model, part, flowId, stepId, llmCalls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costMicros: 0n, unpricedCalls: 0 };
    line.llmCalls += 1;
    line.inputTokens += usage.inputTokens;
    line.cachedInputTokens += usage.cachedInputTokens ?? 0;
    line.outputTokens += usage.outputTokens;
    line.costMicros += cost;
    if (!price) line.unpricedCalls += 1;
    lines.set(key, line);
    // One call's micros fit a double exactly (below 2^53, nine billion currency units).
    return { ...entry, costMicros: Number(cost), ...(price ? {} : { unpriced: true as const }) };
  });
  const sorted = [...lines.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, line]) => line);
  return { costMicros, unpricedCalls, trace: costed, lines: sorted };
}
