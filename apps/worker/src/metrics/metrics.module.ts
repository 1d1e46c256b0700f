import { Module } from '@nestjs/common';
import { WorkerMetricsServer } from './metrics-server';
import { WorkerRoundTripMetrics } from './round-trip.metrics';

/** Serves the worker's Prometheus metrics (see turn-metrics.ts for what it counts). */
@Module({ providers: [WorkerMetricsServer, WorkerRoundTripMetrics] })
export class WorkerMetricsModule {}
