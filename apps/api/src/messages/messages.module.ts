import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { QuotasModule } from '../limits/quotas.module';
import { TurnsQueueModule } from '../queue/turns-queue.module';
import { AcceptMessage } from './accept-message.usecase';
import { ListSessionMessages } from './list-session-messages.usecase';
import { MessagesController } from './messages.controller';
import { PostMessage } from './post-message.usecase';

@Module({
  imports: [ChannelAuthModule, TurnsQueueModule, QuotasModule],
  controllers: [MessagesController],
  providers: [AcceptMessage, PostMessage, ListSessionMessages],
  exports: [PostMessage, ListSessionMessages, QuotasModule],
})
export class MessagesModule {}
