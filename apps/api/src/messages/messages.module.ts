import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { TurnsQueueModule } from '../queue/turns-queue.module';
import { AcceptMessage } from './accept-message.usecase';
import { ListSessionMessages } from './list-session-messages.usecase';
import { MessagesController } from './messages.controller';
import { PostMessage } from './post-message.usecase';
import { TenantQuotas } from '../limits/tenant-quotas';

@Module({
  imports: [ChannelAuthModule, TurnsQueueModule],
  controllers: [MessagesController],
  providers: [AcceptMessage, PostMessage, ListSessionMessages, TenantQuotas],
  exports: [PostMessage, ListSessionMessages, TenantQuotas],
})
export class MessagesModule {}
