import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { closeSharedClusters, createRedisClient, type RedisClient } from '@switchboard/queue';
import { LEASE_STORE, RUNTIME_POOL, SESSION_EVENT_PUBLISHER } from '../backend/backend.tokens';
import { RedisSessionEventPublisher } from '../backend/redis-session-event-publisher';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { RedisLeaseStore } from '../lease/redis-lease-store';

/** Injection token of the worker's command connection (leases, pub/sub publishes). */
export const REDIS = Symbol('REDIS');

class RedisCloser implements OnModuleDestroy {
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  // Global modules are destroyed last, so running turns can still release leases and publish.
  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
    await closeSharedClusters();
  }
}

/** The worker's Redis backend: session leases, the sweeper's lock and session events on Redis. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [WORKER_ENV],
      // Auto-pipelining: what a turn sends together (its committed event, then its lease's
      // release) goes in one write; on this kind of VM a socket write costs more than the command.
      useFactory: (env: WorkerEnv) => createRedisClient(env.REDIS_URL, { lazyConnect: false, enableAutoPipelining: true }),
    },
    { provide: LEASE_STORE, inject: [REDIS], useFactory: (redis: RedisClient) => new RedisLeaseStore(redis) },
    { provide: SESSION_EVENT_PUBLISHER, inject: [REDIS], useFactory: (redis: RedisClient) => new RedisSessionEventPublisher(redis) },
    // No runtime pool in Redis mode (its statements are Postgres mode's twins of Redis commands).
    { provide: RUNTIME_POOL, useValue: null },
    RedisCloser,
  ],
  exports: [REDIS, LEASE_STORE, SESSION_EVENT_PUBLISHER, RUNTIME_POOL],
})
export class RedisModule {}
