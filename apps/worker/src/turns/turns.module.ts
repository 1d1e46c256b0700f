import { Module } from '@nestjs/common';
import { TenantQuotas } from '@switchboard/db';
import { AgentsModule } from '../agents/agents.module';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { LEASE_STORE } from '../backend/backend.tokens';
import type { LeaseStore } from '../lease/lease-store';
import { SessionLeases } from '../lease/session-lease';
import { CommitTurn } from './commit-turn';
import { CommitNoticeTurn } from './commit-notice-turn';
import { DrainSession } from './drain-session';
import { LoadTurnState } from './load-turn-state';
import { RecordUnderstandDeferral } from './record-understand-deferral';
import { RecordProviderBackoff } from './provider-backoff';
import { AgentModelHealth } from './agent-model-health';
import { RecordDeadLetter } from './record-dead-letter';
import { RetireAnsweredJobs } from './retire-answered-jobs';
import { removalQueueProviders } from './removal-queue';
import { RunTurn } from './run-turn';
import { SessionEvents } from './session-events';
import { TurnProcessor } from './turn.processor';
import { WakesModule } from '../wakes/wakes.module';

@Module({
  // WakesModule brings the turns queue too (a stalled-out job's fresh sweep job is added on it).
  imports: [WakesModule, AgentsModule],
  providers: [
    {
      provide: SessionLeases,
      inject: [LEASE_STORE, WORKER_ENV],
      useFactory: (store: LeaseStore, env: WorkerEnv) =>
        new SessionLeases(store, { prefix: env.QUEUE_PREFIX, ttlMs: env.SESSION_LEASE_TTL_MS }),
    },
    TenantQuotas,
    CommitTurn,
    CommitNoticeTurn,
    LoadTurnState,
    SessionEvents,
    RunTurn,
    RecordUnderstandDeferral,
    RecordProviderBackoff,
    AgentModelHealth,
    RecordDeadLetter,
    ...removalQueueProviders,
    RetireAnsweredJobs,
    DrainSession,
    TurnProcessor,
  ],
})
export class TurnsModule {}
