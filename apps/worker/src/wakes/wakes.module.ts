import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QUEUES } from '@switchboard/queue';
import { WakeScheduler } from './wake-scheduler';

@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.turns })],
  providers: [WakeScheduler],
  exports: [WakeScheduler],
})
export class WakesModule {}
