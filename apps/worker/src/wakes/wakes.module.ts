import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QUEUES } from '@switchboard/queue';
import { FlowInputLoader } from './flow-input-loader';
import { WakeScheduler } from './wake-scheduler';

@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.turns })],
  providers: [WakeScheduler, FlowInputLoader],
  exports: [WakeScheduler, FlowInputLoader],
})
export class WakesModule {}
