import { Injectable } from '@nestjs/common';
import { PrismaService, registerRoundTripMetric } from '@switchboard/db';
import { MetricsService } from './metrics.service';

/** `switchboard_pg_round_trips_total` on the API's /metrics (docs/hot-path.md). */
@Injectable()
export class RoundTripMetrics {
  constructor(prisma: PrismaService, metrics: MetricsService) {
    registerRoundTripMetric(metrics.registry, prisma);
  }
}
