import type { PrismaClient } from '../generated/prisma/client';
import type { TenantTx } from '../tenant-scope';
import { addBuckets, percentileFromBuckets } from './latency-buckets';

export interface UsageQuery {
  tenantId: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  agentId?: string;
}

export interface UsageFigures {
  turns: number;
  deferredTurns: number;
  failedTurns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  avgLatencyMs: number | null;
  /** Upper bounds of the latency buckets (see latency-buckets.ts). */
  p50LatencyMs: number | null;
  p95LatencyMs: number | null;
  p99LatencyMs: number | null;
  /** Turns per outcome code. */
  outcomes: Record<string, number>;
}

export interface UsageReport {
  days: (UsageFigures & { day: string; agentId: string })[];
  total: UsageFigures;
}

type Reader = Pick<PrismaClient, 'usageDaily' | 'usageOutcomeDaily'> | TenantTx;

/**
 * Usage by agent and day, and in total, read from the daily roll-ups only: the cost depends on
 * days × agents, never on the number of turns.
 */
export async function readUsage(db: Reader, q: UsageQuery): Promise<UsageReport> {
  const where = {
    tenantId: q.tenantId,
    day: { gte: new Date(`${q.from}T00:00:00Z`), lte: new Date(`${q.to}T00:00:00Z`) },
    ...(q.agentId !== undefined && { agentId: q.agentId }),
  };
  const [rows, outcomeRows] = await Promise.all([
    db.usageDaily.findMany({ where, orderBy: [{ day: 'asc' }, { agentId: 'asc' }] }),
    db.usageOutcomeDaily.findMany({ where, select: { day: true, agentId: true, code: true, turns: true } }),
  ]);
  const keyOf = (day: Date, agentId: string) => `${day.toISOString().slice(0, 10)}|${agentId}`;
  const outcomesByKey = new Map<string, Record<string, number>>();
  const totalOutcomes: Record<string, number> = {};
  for (const o of outcomeRows) {
    const map = outcomesByKey.get(keyOf(o.day, o.agentId)) ?? {};
    map[o.code] = (map[o.code] ?? 0) + o.turns;
    outcomesByKey.set(keyOf(o.day, o.agentId), map);
    totalOutcomes[o.code] = (totalOutcomes[o.code] ?? 0) + o.turns;
  }

  // One entry per agent and day: the slots of a (day, agent) are summed (usage-slot.ts).
  const byKey = new Map<string, { day: Date; agentId: string; sums: Sums; buckets: number[] }>();
  for (const r of rows) {
    const k = keyOf(r.day, r.agentId);
    const at = byKey.get(k) ?? { day: r.day, agentId: r.agentId, sums: emptySums(), buckets: [] };
    at.sums = addSums(at.sums, r);
    at.buckets = addBuckets(at.buckets, r.latencyBuckets);
    byKey.set(k, at);
  }
  const days = [...byKey.values()].map((d) => ({
    day: d.day.toISOString().slice(0, 10),
    agentId: d.agentId,
    ...figures(d.sums, d.buckets, outcomesByKey.get(keyOf(d.day, d.agentId)) ?? {}),
  }));
  const sum = rows.reduce(addSums, emptySums());
  const buckets = rows.reduce<number[]>((acc, r) => addBuckets(acc, r.latencyBuckets), []);
  return { days, total: figures(sum, buckets, totalOutcomes) };
}

interface Sums {
  turns: number;
  deferredTurns: number;
  failedTurns: number;
  llmCalls: bigint;
  inputTokens: bigint;
  outputTokens: bigint;
  cachedInputTokens: bigint;
  totalMs: bigint;
}

function emptySums(): Sums {
  return { turns: 0, deferredTurns: 0, failedTurns: 0, llmCalls: 0n, inputTokens: 0n, outputTokens: 0n, cachedInputTokens: 0n, totalMs: 0n };
}

function addSums(acc: Sums, r: Sums): Sums {
  return {
    turns: acc.turns + r.turns,
    deferredTurns: acc.deferredTurns + r.deferredTurns,
    failedTurns: acc.failedTurns + r.failedTurns,
    llmCalls: acc.llmCalls + r.llmCalls,
    inputTokens: acc.inputTokens + r.inputTokens,
    outputTokens: acc.outputTokens + r.outputTokens,
    cachedInputTokens: acc.cachedInputTokens + r.cachedInputTokens,
    totalMs: acc.totalMs + r.totalMs,
  };
}

function figures(s: Sums, buckets: number[], outcomes: Record<string, number>): UsageFigures {
  return {
    turns: s.turns,
    deferredTurns: s.deferredTurns,
    failedTurns: s.failedTurns,
    llmCalls: Number(s.llmCalls),
    inputTokens: Number(s.inputTokens),
    outputTokens: Number(s.outputTokens),
    cachedInputTokens: Number(s.cachedInputTokens),
    avgLatencyMs: s.turns > 0 ? Math.round(Number(s.totalMs) / s.turns) : null,
    p50LatencyMs: percentileFromBuckets(buckets, 0.5),
    p95LatencyMs: percentileFromBuckets(buckets, 0.95),
    p99LatencyMs: percentileFromBuckets(buckets, 0.99),
    outcomes,
  };
}
