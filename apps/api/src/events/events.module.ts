import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { QuotasModule } from '../limits/quotas.module';
import { TurnsQueueModule } from '../queue/turns-queue.module';
import { AcceptFlowInput } from './accept-flow-input';
import { EventsController } from './events.controller';
import { PostEvent } from './post-event.usecase';

/** `POST /v1/events`, and AcceptFlowInput, which manual starts share. */
@Module({
  imports: [ChannelAuthModule, TurnsQueueModule, QuotasModule],
  controllers: [EventsController],
  providers: [AcceptFlowInput, PostEvent],
  exports: [AcceptFlowInput, QuotasModule],
})
export class EventsModule {}
