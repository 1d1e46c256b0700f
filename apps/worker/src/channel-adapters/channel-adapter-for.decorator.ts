import { DiscoveryService } from '@nestjs/core';
import type { AdapterKind } from '@switchboard/webhooks';

/** Marks a provider as the adapter of one channel kind; ChannelAdapters finds it at start-up. */
export const ChannelAdapterFor = DiscoveryService.createDecorator<AdapterKind>();
