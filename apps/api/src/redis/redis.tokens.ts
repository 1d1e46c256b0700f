/** ioredis client for commands (health PING). Fails fast instead of queueing while Redis is down. */
export const REDIS = Symbol('REDIS');
