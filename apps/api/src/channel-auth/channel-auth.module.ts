import { Module } from '@nestjs/common';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';

@Module({ providers: [ApiKeyCache, ApiKeyGuard], exports: [ApiKeyCache, ApiKeyGuard] })
export class ChannelAuthModule {}
