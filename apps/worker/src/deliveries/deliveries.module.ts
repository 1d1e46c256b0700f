import { Module } from '@nestjs/common';
import { ChannelAdaptersModule } from '../channel-adapters/channel-adapters.module';
import { SecretBox } from '../secrets/secret-box';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { WebhookTestProcessor } from './webhook-test.processor';

@Module({ imports: [ChannelAdaptersModule], providers: [SecretBox, DeliveryDispatcher, WebhookTestProcessor], exports: [DeliveryDispatcher] })
export class DeliveriesModule {}
