import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RATE_LIMITS_TABLE, RUNTIME_SCHEMA, type RedisClient } from '@switchboard/queue';

/** Injection token of the process's RateLimiters. */
export const RATE_LIMITERS = Symbol('RATE_LIMITERS');

export interface RateLimitSpec {
  /** Namespace of the counted ids (already carrying QUEUE_PREFIX). */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/**
 * Makes the counters every API instance shares: in Redis, or in a Postgres table in Postgres
 * mode. Either way an in-memory count takes over while the store is down.
 */
export interface RateLimiters {
  create(spec: RateLimitSpec): RateLimiterAbstract;
}

export class RedisRateLimiters implements RateLimiters {
  constructor(private readonly redis: RedisClient) {}

  create({ keyPrefix, points, durationSeconds }: RateLimitSpec): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: durationSeconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
    });
  }
}

/** Counters in sb_runtime.rate_limits (created by ensureRuntimeSchema before this is used). */
export class PostgresRateLimiters implements RateLimiters {
  constructor(private readonly pool: Pool) {}

  create({ keyPrefix, points, durationSeconds }: RateLimitSpec): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.pool,
      storeType: 'pool',
      schemaName: RUNTIME_SCHEMA,
      tableName: RATE_LIMITS_TABLE,
      tableCreated: true,
      // Expired rows are deleted hourly by whichever instance's timer fires.
      clearExpiredByTimeout: true,
      keyPrefix,
      points,
      duration: durationSeconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
    });
  }
}
