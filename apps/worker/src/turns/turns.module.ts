import { Module } from '@nestjs/common';
import { TenantQuotas } from '@switchboard/db';
import { AgentsModule } from '../agents/agents.module';
import { sessionLeasesProvider } from '../lease/session-leases.provider';
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
    sessionLeasesProvider,
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
