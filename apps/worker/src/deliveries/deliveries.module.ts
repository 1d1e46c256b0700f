import { Module } from '@nestjs/common';
import { SecretBox } from '../secrets/secret-box';
import { DeliveryDispatcher } from './delivery-dispatcher';

@Module({ providers: [SecretBox, DeliveryDispatcher], exports: [DeliveryDispatcher] })
export class DeliveriesModule {}
