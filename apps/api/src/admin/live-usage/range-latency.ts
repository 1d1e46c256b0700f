import { addBuckets, LATENCY_BUCKET_BOUNDS_MS, percentileFromBuckets, type Prisma, type TenantTx } from '@switchboard/db';
import { MAX_EXACT_DAYS } from './usage-range';
import { exactLatency, exactLatencyByDay, type DayLatency, type TurnRange } from './turn-figures';

/** Latency percentiles over a range, with how they were computed (the console prints it). */
export interface RangeLatency {
  /**
   * `exact`: percentile_cont over the turns' totalMs (ranges up to MAX_EXACT_DAYS days).
   * `bucket-upper-bound`: from the daily roll-up's histogram, the upper bound of the bucket the
   * percentile falls in; the true value lies between the previous bound and this one.
   */
  method: 'exact' | 'bucket-upper-bound';
  /** The histogram's bounds when method is bucket-upper-bound (the stated error). */
  bucketBoundsMs?: readonly number[];
  turns: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  byDay: DayLatency[];
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export async function rangeLatency(tx: TenantTx, r: TurnRange & { days: number }): Promise<RangeLatency> {
  if (r.days <= MAX_EXACT_DAYS) {
    const [overall, byDay] = await Promise.all([exactLatency(tx, r), exactLatencyByDay(tx, r)]);
    return { ...overall, byDay };
  }
  const last = new Date(r.to.getTime() - 86_400_000);
  const where: Prisma.UsageDailyWhereInput = {
    ...(r.tenantId && { tenantId: r.tenantId }),
    ...(r.agentId && { agentId: r.agentId }),
    day: { gte: r.from, lte: last },
  };
  const rows = await tx.usageDaily.findMany({ where, select: { day: true, turns: true, latencyBuckets: true } });
  const perDay = new Map<string, { turns: number; buckets: number[] }>();
  let all: number[] = [];
  for (const row of rows) {
    const d = perDay.get(dayOf(row.day)) ?? { turns: 0, buckets: [] };
    perDay.set(dayOf(row.day), { turns: d.turns + row.turns, buckets: addBuckets(d.buckets, row.latencyBuckets) });
    all = addBuckets(all, row.latencyBuckets);
  }
  const byDay = [...perDay.entries()]
    .filter(([, d]) => d.turns > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, d]) => ({ day, turns: d.turns, p50: percentileFromBuckets(d.buckets, 0.5) ?? 0, p95: percentileFromBuckets(d.buckets, 0.95) ?? 0 }));
  return {
    method: 'bucket-upper-bound',
    bucketBoundsMs: LATENCY_BUCKET_BOUNDS_MS,
    turns: all.reduce((s, n) => s + n, 0),
    p50: percentileFromBuckets(all, 0.5),
    p95: percentileFromBuckets(all, 0.95),
    p99: percentileFromBuckets(all, 0.99),
    byDay,
  };
}
