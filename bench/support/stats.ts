// Small numeric helpers shared by the benches.

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null when there are none. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number | null => percentile(sorted, p);
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted.length ? sorted[sorted.length - 1] : null };
}

/** A ratio as a percentage with no decimals ("62%"), or "n/a" when the base is zero. */
export function percentOf(value: number, base: number): string {
  return base > 0 ? `${Math.round((value / base) * 100)}%` : 'n/a';
}

/** Rounds for display: integers above 100, one decimal above 10, two below. */
export function fmt(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }).replace(/,/g, ' ');
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
