import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SessionLeases } from '../lease/session-lease';
import { REDIS } from '../redis/redis.module';
import type { Redis } from 'ioredis';
import { CommitTurn } from './commit-turn';
import { DrainSession } from './drain-session';
import { LoadHistory } from './load-history';
import { RunTurn } from './run-turn';
import { SessionEvents } from './session-events';
import { TurnProcessor } from './turn.processor';
import { WakesModule } from '../wakes/wakes.module';

@Module({
  imports: [WakesModule, AgentsModule],
  providers: [
    {
      provide: SessionLeases,
      inject: [REDIS, WORKER_ENV],
      useFactory: (redis: Redis, env: WorkerEnv) =>
        new SessionLeases(redis, { prefix: env.QUEUE_PREFIX, ttlMs: env.SESSION_LEASE_TTL_MS }),
    },
    CommitTurn,
    LoadHistory,
    SessionEvents,
    RunTurn,
    DrainSession,
    TurnProcessor,
  ],
})
export class TurnsModule {}
