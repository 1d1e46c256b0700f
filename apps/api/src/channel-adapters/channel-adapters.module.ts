import { Module } from '@nestjs/common';
import { SecretBox } from '../admin/common/secret-box';
import { MessagesModule } from '../messages/messages.module';
import { ChannelInboundController } from './channel-inbound.controller';
import { ChannelSetupQueue } from './channel-setup.queue';
import { HandBackFromPlatform } from './hand-back-from-platform';
import { IngestPlatformMessage } from './ingest-platform-message.usecase';
import { PlatformChannels } from './platform-channels';
import { PlatformChannelSetup } from './platform-channel-setup';

/**
 * Platform channels (docs/channels.md): their inbound webhooks under /v1/channels/<kind>/<id>.
 * PlatformChannelSetup is exported for the console's channel create, edit and delete.
 */
@Module({
  imports: [MessagesModule],
  controllers: [ChannelInboundController],
  providers: [SecretBox, PlatformChannels, IngestPlatformMessage, HandBackFromPlatform, ChannelSetupQueue, PlatformChannelSetup],
  exports: [PlatformChannelSetup],
})
export class ChannelAdaptersModule {}
