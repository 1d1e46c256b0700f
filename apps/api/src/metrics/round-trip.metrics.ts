import { Inject, Injectable } from '@nestjs/common';
import { type CountingPool, PrismaService, registerRoundTripMetric } from '@switchboard/db';
import { RUNTIME_POOL } from '../redis/redis.tokens';
import { MetricsService } from './metrics.service';

/** `switchboard_pg_round_trips_total` on the API's /metrics (docs/hot-path.md). */
@Injectable()
export class RoundTripMetrics {
  constructor(prisma: PrismaService, metrics: MetricsService, @Inject(RUNTIME_POOL) runtime: CountingPool | null) {
    registerRoundTripMetric(metrics.registry, prisma, runtime);
  }
}
