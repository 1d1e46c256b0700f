import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { QueueDepthMetrics } from './queue-depth.metrics';

@Global()
@Module({ controllers: [MetricsController], providers: [MetricsService, QueueDepthMetrics], exports: [MetricsService] })
export class MetricsModule {}
