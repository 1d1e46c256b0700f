import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QUEUES } from '@switchboard/queue';
import { WakesModule } from '../wakes/wakes.module';
import { Sweeper } from './sweeper';

@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.turns }), WakesModule],
  providers: [Sweeper],
  exports: [Sweeper],
})
export class SweeperModule {}
