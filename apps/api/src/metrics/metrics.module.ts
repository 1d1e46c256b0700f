import { Global, Module } from '@nestjs/common';
import { ApiMetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';
import { QueueDepthMetrics } from './queue-depth.metrics';
import { BudgetMetrics } from './budget.metrics';
import { RoundTripMetrics } from './round-trip.metrics';

@Global()
@Module({ providers: [MetricsService, QueueDepthMetrics, BudgetMetrics, RoundTripMetrics, ApiMetricsServer], exports: [MetricsService] })
export class MetricsModule {}
