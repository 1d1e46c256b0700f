import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QUEUES } from '@switchboard/queue';
import { FlowInputLoader } from './flow-input-loader';
import { WakeScheduler } from './wake-scheduler';

const turnsQueue = BullModule.registerQueue({ name: QUEUES.turns });

// Exports the turns queue too: the turn processor adds a stalled-out job's fresh sweep job on it.
@Module({
  imports: [turnsQueue],
  providers: [WakeScheduler, FlowInputLoader],
  exports: [WakeScheduler, FlowInputLoader, turnsQueue],
})
export class WakesModule {}
