import { Global, Inject, Logger, Module, type OnModuleDestroy } from '@nestjs/common';
import { queueBackend, type Env } from '@switchboard/config';
import { CountingPool, PrismaService } from '@switchboard/db';
import { closeSharedClusters, createRedisClient, ensureRuntimeSchema, type RedisClient } from '@switchboard/queue';
import type { Pool } from 'pg';
import { ENV } from '../config/env.module';
import { PostgresSessionEventsSubscriber } from './postgres-session-events.subscriber';
import { PostgresRateLimiters, RATE_LIMITERS, RedisRateLimiters } from './rate-limiters';
import { REDIS, RUNTIME_POOL } from './redis.tokens';
import { RedisSessionEventsSubscriber, SessionEventsSubscriber } from './session-events.subscriber';

/**
 * The API's side of the backend, chosen once at start-up (QUEUE_BACKEND; see loadEnv) and
 * logged: session-event subscriptions (`?wait`, SSE) and rate-limit counters on Redis, or on
 * Postgres in Postgres mode. The turns queue follows the same choice (TurnsQueue).
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [ENV],
      // No offline queue: a command while Redis is down fails at once (health says "down")
      // instead of hanging the request. Auto-pipelining sends the commands of concurrent
      // requests (the rate limiters' scripts) issued in one tick as one socket write.
      useFactory: (env: Env) => {
        new Logger('Backend').log(
          queueBackend(env) === 'postgres'
            ? 'backend: postgres (queue, session events and rate limits on DATABASE_URL; REDIS_URL unused)'
            : 'backend: redis (queue, session events and rate limits on REDIS_URL)',
        );
        if (queueBackend(env) === 'postgres') return null;
        const redis = createRedisClient(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true });
        redis.on('error', () => undefined); // reconnects by itself; health reports the state
        return redis;
      },
    },
    {
      provide: RUNTIME_POOL,
      inject: [ENV],
      useFactory: async (env: Env) => {
        if (queueBackend(env) !== 'postgres') return null;
        // Counted in switchboard_pg_round_trips_total as pool="runtime".
        const pool = new CountingPool({ connectionString: env.DATABASE_URL, max: env.QUEUE_PG_POOL_MAX });
        pool.on('error', () => undefined); // an idle client dropped; the next query reconnects
        await ensureRuntimeSchema(pool);
        return pool;
      },
    },
    {
      provide: RATE_LIMITERS,
      inject: [REDIS, RUNTIME_POOL],
      useFactory: (redis: RedisClient | null, pool: Pool | null) => (redis ? new RedisRateLimiters(redis) : new PostgresRateLimiters(pool!)),
    },
    {
      provide: SessionEventsSubscriber,
      inject: [ENV, PrismaService],
      useFactory: (env: Env, prisma: PrismaService) =>
        queueBackend(env) === 'postgres' ? new PostgresSessionEventsSubscriber(env, prisma) : new RedisSessionEventsSubscriber(env),
    },
  ],
  exports: [REDIS, RUNTIME_POOL, RATE_LIMITERS, SessionEventsSubscriber],
})
export class RedisModule implements OnModuleDestroy {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient | null,
    @Inject(RUNTIME_POOL) private readonly pool: Pool | null,
  ) {}

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
    await closeSharedClusters();
    await this.pool?.end().catch(() => undefined);
  }
}
