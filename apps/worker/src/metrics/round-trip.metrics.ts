import { Inject, Injectable } from '@nestjs/common';
import { type CountingPool, PrismaService, registerRoundTripMetric } from '@switchboard/db';
import { RUNTIME_POOL } from '../backend/backend.tokens';
import { workerRegistry } from './turn-metrics';

/** `switchboard_pg_round_trips_total` on the worker's /metrics (docs/hot-path.md). */
@Injectable()
export class WorkerRoundTripMetrics {
  constructor(prisma: PrismaService, @Inject(RUNTIME_POOL) runtime: CountingPool | null) {
    registerRoundTripMetric(workerRegistry, prisma, runtime);
  }
}
