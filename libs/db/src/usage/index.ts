export * from './latency-buckets';
export * from './record-turn-usage';
