import { addBuckets, LATENCY_BUCKET_COUNT, percentileFromBuckets, type UsageDaily } from '@switchboard/db';

/** One agent's usage on one day (or, for the summary, over a range), as the console reads it. */
export interface UsageDto {
  turns: number;
  deferredTurns: number;
  failedTurns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Per turn: averages from the summed ms; percentiles exact to the latency bucket (upper bound). */
  latencyMs: { avg: number | null; p50: number | null; p95: number | null; p99: number | null };
  avgQueueWaitMs: number | null;
  avgModelMs: number | null;
  avgToolsMs: number | null;
  avgCommitMs: number | null;
  /** Turns per outcome code (a turn with two codes counts under both). */
  outcomes: Record<string, number>;
  /** What the turns cost, in micro-units of USD, a decimal string (docs/cost.md). */
  costMicros: string;
  /** Calls of models with no price (counted at 0). */
  unpricedCalls: number;
  /** Runs that completed: resolved conversations. */
  completedRuns: number;
  /** costMicros / completedRuns, rounded half up; null without a completed run. */
  costPerResolvedMicros: string | null;
}

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
