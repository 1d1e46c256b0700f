/**
 * ioredis client for commands (health PING), or null in Postgres mode. Fails fast instead of
 * queueing while Redis is down.
 */
export const REDIS = Symbol('REDIS');
/** The API's own small Postgres pool for rate limits in Postgres mode (null on Redis). */
export const RUNTIME_POOL = Symbol('RUNTIME_POOL');
