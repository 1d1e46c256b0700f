import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';

/** Injection token of the worker's command connection (leases, pub/sub publishes). */
export const REDIS = Symbol('REDIS');

class RedisCloser implements OnModuleDestroy {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  // Global modules are destroyed last, so running turns can still release leases and publish.
  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [WORKER_ENV],
      useFactory: (env: WorkerEnv) => new Redis(env.REDIS_URL, { lazyConnect: false }),
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
