export * from './env.schema';
export * from './load-env';
export * from './metrics-token';
export * from './trust-proxy';
export * from './redis-url';
export * from './log-destination';
