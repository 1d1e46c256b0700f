import { Module } from '@nestjs/common';
import { WorkerMetricsServer } from './metrics-server';

/** Serves the worker's Prometheus metrics (see turn-metrics.ts for what it counts). */
@Module({ providers: [WorkerMetricsServer] })
export class WorkerMetricsModule {}
