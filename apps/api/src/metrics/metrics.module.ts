import { Global, Module } from '@nestjs/common';
import { ApiMetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';
import { QueueDepthMetrics } from './queue-depth.metrics';
import { BudgetMetrics } from './budget.metrics';

@Global()
@Module({ providers: [MetricsService, QueueDepthMetrics, BudgetMetrics, ApiMetricsServer], exports: [MetricsService] })
export class MetricsModule {}
