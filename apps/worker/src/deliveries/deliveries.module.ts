import { Module } from '@nestjs/common';
import { SecretBox } from '../secrets/secret-box';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { WebhookTestProcessor } from './webhook-test.processor';

@Module({ providers: [SecretBox, DeliveryDispatcher, WebhookTestProcessor], exports: [DeliveryDispatcher] })
export class DeliveriesModule {}
