import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { LoggerModule } from 'nestjs-pino';
import { logDestination } from '@switchboard/config';
import { DbModule } from '@switchboard/db';
import { bullConnection } from '@switchboard/queue';
import { backendModule } from './backend/backend.module';
import type { WorkerEnv } from './config/worker-env';
import { WorkerEnvModule } from './config/worker-env.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { SweeperModule } from './sweeper/sweeper.module';
import { UsageModule } from './usage/usage.module';
import { SessionToolsModule } from './tools/builtin/session-tools.module';
import { ToolSyncModule } from './tools/tool-sync.module';
import { ToolsModule } from './tools/tools.module';
import { TurnsModule } from './turns/turns.module';
import { WorkerMetricsModule } from './metrics/metrics.module';
import { SessionActionsModule } from './actions/session-actions.module';
import { AgentRunsModule } from './agent-runs/agent-runs.module';
import { QueuesReadyModule } from './queues/queues-ready';

/** The worker process: an application context (no HTTP server) running the BullMQ processors. */
@Module({})
export class WorkerModule {
  static forRoot(env: WorkerEnv): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        WorkerEnvModule.forRoot(env),
        LoggerModule.forRoot({
          pinoHttp: [
            {
              level: env.LOG_LEVEL,
              base: { service: 'worker', pid: process.pid },
              // Never log secrets, even when an error object carries them.
              redact: {
                paths: ['*.apiKey', '*.password', '*.authorization', '*.credentials', '*.headers.authorization', 'config.provider.credentials'],
                censor: '[redacted]',
              },
            },
            logDestination(),
          ],
        }),
        DbModule.forRoot({ url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX }),
        // Redis, or Postgres in Postgres mode (QUEUE_BACKEND): the queue, leases, locks and events.
        backendModule(env),
        BullModule.forRoot({ connection: bullConnection(env), prefix: env.QUEUE_PREFIX }),
        ToolsModule,
        SessionToolsModule,
        ToolSyncModule,
        SessionActionsModule,
        TurnsModule,
        WorkerMetricsModule,
        SweeperModule,
        UsageModule,
        DeliveriesModule,
        AgentRunsModule,
        QueuesReadyModule,
      ],
    };
  }
}
