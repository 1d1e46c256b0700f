import { Injectable } from '@nestjs/common';
import { PrismaService, registerRoundTripMetric } from '@switchboard/db';
import { workerRegistry } from './turn-metrics';

/** `switchboard_pg_round_trips_total` on the worker's /metrics (docs/hot-path.md). */
@Injectable()
export class WorkerRoundTripMetrics {
  constructor(prisma: PrismaService) {
    registerRoundTripMetric(workerRegistry, prisma);
  }
}
