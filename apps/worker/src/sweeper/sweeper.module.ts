import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QUEUES } from '@switchboard/queue';
import { Sweeper } from './sweeper';

@Module({
  imports: [BullModule.registerQueue({ name: QUEUES.turns })],
  providers: [Sweeper],
  exports: [Sweeper],
})
export class SweeperModule {}
