import { Module } from '@nestjs/common';
import { TurnsQueue } from './turns-queue.service';

@Module({ providers: [TurnsQueue], exports: [TurnsQueue] })
export class TurnsQueueModule {}
