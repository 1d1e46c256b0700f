import { addBuckets, LATENCY_BUCKET_COUNT, latencyBucketIndex, latencyBucketVector, percentileFromBuckets } from './latency-buckets';

describe('latency buckets', () => {
  it('puts a latency in the first bucket whose bound holds it', () => {
    expect(latencyBucketIndex(0)).toBe(0);
    expect(latencyBucketIndex(100)).toBe(0);
    expect(latencyBucketIndex(101)).toBe(1);
    expect(latencyBucketIndex(999_999)).toBe(LATENCY_BUCKET_COUNT - 1);
    expect(latencyBucketVector(300)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('adds vectors of different lengths', () => {
    expect(addBuckets([1, 2], [0, 1, 5])).toEqual([1, 3, 5]);
  });

  it('reads percentiles as bucket upper bounds', () => {
    // 90 fast turns (≤100 ms), 9 at ≤1 s, 1 very slow.
    const buckets = addBuckets(addBuckets([90], [0, 0, 0, 9]), latencyBucketVector(120_000));
    expect(percentileFromBuckets(buckets, 0.5)).toBe(100);
    expect(percentileFromBuckets(buckets, 0.95)).toBe(1000);
    expect(percentileFromBuckets(buckets, 0.99)).toBe(1000);
    expect(percentileFromBuckets(buckets, 1)).toBe(60000);
    expect(percentileFromBuckets([], 0.5)).toBeNull();
  });
});
