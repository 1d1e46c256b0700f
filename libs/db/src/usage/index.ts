export * from './latency-buckets';
export * from './read-usage';
export * from './record-turn-usage';
export * from './usage-slot';
export * from './fold-usage-slots';
export * from './monthly-usage';
export * from './tenant-quotas';
export * from './console-usage';
