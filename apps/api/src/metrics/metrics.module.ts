import { Global, Module } from '@nestjs/common';
import { ApiMetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';
import { QueueDepthMetrics } from './queue-depth.metrics';

@Global()
@Module({ providers: [MetricsService, QueueDepthMetrics, ApiMetricsServer], exports: [MetricsService] })
export class MetricsModule {}
