import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { SecretBox } from '../secrets/secret-box';
import { AdapterDeliveries } from './adapter-deliveries';
import { ChannelAdapters } from './channel-adapters';
import { ChannelSetupProcessor } from './channel-setup.processor';
import { TelegramAdapter } from './telegram/telegram.adapter';
import { WhatsAppAdapter } from './whatsapp/whatsapp.adapter';
import { ChatwootAdapter } from './chatwoot/chatwoot.adapter';
import { SlackAdapter } from './slack/slack.adapter';

/** Platform channels (docs/channels.md): one adapter per platform, found by @ChannelAdapterFor. */
@Module({
  imports: [DiscoveryModule],
  providers: [SecretBox, ChannelAdapters, AdapterDeliveries, ChannelSetupProcessor, TelegramAdapter, WhatsAppAdapter, SlackAdapter, ChatwootAdapter],
  exports: [AdapterDeliveries],
})
export class ChannelAdaptersModule {}
