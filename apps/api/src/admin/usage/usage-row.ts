import { z } from 'zod';
import { addBuckets, LATENCY_BUCKET_COUNT, percentileFromBuckets, type UsageDaily } from '@switchboard/db';

/** One agent's usage on one day (or, for the summary, over a range), as the console reads it. */
const ms = z.number().min(0).nullable();

/** Usage over some days (the OpenAPI document's schema of the usage answers). */
export const usageTotals = z.object({
  turns: z.number().int().min(0),
  deferredTurns: z.number().int().min(0),
  failedTurns: z.number().int().min(0),
  llmCalls: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedInputTokens: z.number().int().min(0),
  /** Per turn: averages from the summed ms; percentiles exact to the latency bucket (upper bound). */
  latencyMs: z.object({ avg: ms, p50: ms, p95: ms, p99: ms }),
  avgQueueWaitMs: ms,
  avgModelMs: ms,
  avgToolsMs: ms,
  avgCommitMs: ms,
  /** Turns per outcome code (a turn with two codes counts under both). */
  outcomes: z.record(z.string(), z.number().int().min(0)),
  /** What the turns cost, in micro-units of USD, a decimal string (docs/cost.md). */
  costMicros: z.string().regex(/^\d+$/),
  /** Calls of models with no price (counted at 0). */
  unpricedCalls: z.number().int().min(0),
  /** Runs that completed: resolved conversations. */
  completedRuns: z.number().int().min(0),
  /** costMicros / completedRuns, rounded half up; null without a completed run. */
  costPerResolvedMicros: z.string().regex(/^\d+$/).nullable(),
});
export type UsageDto = z.infer<typeof usageTotals>;

export type UsageSums = Pick<
  UsageDaily,
  'turns' | 'deferredTurns' | 'failedTurns' | 'llmCalls' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'queueWaitMs' | 'modelMs' | 'toolsMs' | 'commitMs' | 'totalMs' | 'latencyBuckets' | 'costMicros' | 'unpricedCalls' | 'completedRuns'
>;

export function emptySums(): UsageSums {
  return {
    turns: 0,
    deferredTurns: 0,
    failedTurns: 0,
    llmCalls: 0n,
    inputTokens: 0n,
    outputTokens: 0n,
    cachedInputTokens: 0n,
    queueWaitMs: 0n,
    modelMs: 0n,
    toolsMs: 0n,
    commitMs: 0n,
    totalMs: 0n,
    latencyBuckets: new Array<number>(LATENCY_BUCKET_COUNT).fill(0),
    costMicros: 0n,
    unpricedCalls: 0n,
    completedRuns: 0n,
  };
}

export function addSums(a: UsageSums, b: UsageSums): UsageSums {
  return {
    turns: a.turns + b.turns,
    deferredTurns: a.deferredTurns + b.deferredTurns,
    failedTurns: a.failedTurns + b.failedTurns,
    llmCalls: a.llmCalls + b.llmCalls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    queueWaitMs: a.queueWaitMs + b.queueWaitMs,
    modelMs: a.modelMs + b.modelMs,
    toolsMs: a.toolsMs + b.toolsMs,
    commitMs: a.commitMs + b.commitMs,
    totalMs: a.totalMs + b.totalMs,
    latencyBuckets: addBuckets(a.latencyBuckets, b.latencyBuckets),
    costMicros: a.costMicros + b.costMicros,
    unpricedCalls: a.unpricedCalls + b.unpricedCalls,
    completedRuns: a.completedRuns + b.completedRuns,
  };
}

export function toUsageDto(s: UsageSums, outcomes: Record<string, number>): UsageDto {
  const avg = (ms: bigint) => (s.turns === 0 ? null : Math.round(Number(ms) / s.turns));
  return {
    turns: s.turns,
    deferredTurns: s.deferredTurns,
    failedTurns: s.failedTurns,
    llmCalls: Number(s.llmCalls),
    inputTokens: Number(s.inputTokens),
    outputTokens: Number(s.outputTokens),
    cachedInputTokens: Number(s.cachedInputTokens),
    latencyMs: {
      avg: avg(s.totalMs),
      p50: percentileFromBuckets(s.latencyBuckets, 0.5),
      p95: percentileFromBuckets(s.latencyBuckets, 0.95),
      p99: percentileFromBuckets(s.latencyBuckets, 0.99),
    },
    avgQueueWaitMs: avg(s.queueWaitMs),
    avgModelMs: avg(s.modelMs),
    avgToolsMs: avg(s.toolsMs),
    avgCommitMs: avg(s.commitMs),
    outcomes,
    costMicros: s.costMicros.toString(),
    unpricedCalls: Number(s.unpricedCalls),
    completedRuns: Number(s.completedRuns),
    costPerResolvedMicros: s.completedRuns === 0n ? null : ((s.costMicros * 2n + s.completedRuns) / (2n * s.completedRuns)).toString(),
  };
}
