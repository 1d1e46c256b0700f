import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { Env } from '@switchboard/config';
import { DbModule } from '@switchboard/db';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { EnvModule } from './config/env.module';
import { appLoggerModule } from './logging/logger.module';
import { MetricsModule } from './metrics/metrics.module';
import { RedisModule } from './redis/redis.module';
import { TenantStatuses } from './tenant-status/tenant-statuses';

/**
 * Infrastructure every feature module can inject without importing it: ENV, PrismaService,
 * REDIS and SessionEventsSubscriber, MetricsService, PinoLogger, TenantStatuses (one cache per
 * process, so a status change forgets it everywhere in the app), and the global error filter.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: CoreModule,
      imports: [EnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX }), appLoggerModule(env), RedisModule, MetricsModule],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }, TenantStatuses],
      exports: [TenantStatuses],
    };
  }
}
