import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { Redis } from 'ioredis';
import { ENV } from '../config/env.module';
import { REDIS } from './redis.tokens';
import { SessionEventsSubscriber } from './session-events.subscriber';

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [ENV],
      // No offline queue: a command while Redis is down fails at once (health says "down")
      // instead of hanging the request.
      useFactory: (env: Env) => {
        const redis = new Redis(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
        redis.on('error', () => undefined); // reconnects by itself; health reports the state
        return redis;
      },
    },
    SessionEventsSubscriber,
  ],
  exports: [REDIS, SessionEventsSubscriber],
})
export class RedisModule implements OnModuleDestroy {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
