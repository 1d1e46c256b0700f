import { Module } from '@nestjs/common';
import { FairShare } from './fair-share';
import { TurnsQueue } from './turns-queue.service';

@Module({ providers: [FairShare, TurnsQueue], exports: [TurnsQueue] })
export class TurnsQueueModule {}
