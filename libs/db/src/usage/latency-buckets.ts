// Turn latency (totalMs) is rolled up as counts per bucket, so percentiles can be read from the
// daily roll-up without scanning turns. Bucket i counts turns with totalMs <= BOUNDS[i] (and
// above the previous bound); the last bucket counts everything slower than the last bound.
// Changing the bounds changes the meaning of stored rows: append only, never reorder.

export const LATENCY_BUCKET_BOUNDS_MS = [100, 250, 500, 1000, 2000, 4000, 8000, 15000, 30000, 60000] as const;
export const LATENCY_BUCKET_COUNT = LATENCY_BUCKET_BOUNDS_MS.length + 1;

export function latencyBucketIndex(ms: number): number {
  const i = LATENCY_BUCKET_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BUCKET_BOUNDS_MS.length : i;
}

/** A vector with a 1 in the bucket of `ms`, to add to a stored one. */
export function latencyBucketVector(ms: number): number[] {
  const v = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
  v[latencyBucketIndex(ms)] = 1;
  return v;
}

/** Adds bucket vectors of possibly different lengths (rows written before a bound was added). */
export function addBuckets(a: readonly number[], b: readonly number[]): number[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));
}

/**
 * The latency under which a share `p` (0..1) of turns finished, as the upper bound of the bucket
 * that reaches it: an upper estimate, exact to the bucket. Null when there are no turns; the
 * last bound when the percentile falls in the open-ended slowest bucket.
 */
export function percentileFromBuckets(buckets: readonly number[], p: number): number | null {
  const total = buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const target = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= target) return LATENCY_BUCKET_BOUNDS_MS[Math.min(i, LATENCY_BUCKET_BOUNDS_MS.length - 1)];
  }
  return LATENCY_BUCKET_BOUNDS_MS[LATENCY_BUCKET_BOUNDS_MS.length - 1];
}
