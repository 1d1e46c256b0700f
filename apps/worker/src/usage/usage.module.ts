import { Module } from '@nestjs/common';
import { UsageSlotFolder } from './usage-slot-folder';

@Module({ providers: [UsageSlotFolder], exports: [UsageSlotFolder] })
export class UsageModule {}
