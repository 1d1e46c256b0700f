import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { AdapterKind } from '@switchboard/webhooks';
import { discoverMarked } from '../discovery/discover-marked';
import type { ChannelAdapter } from './channel-adapter';
import { ChannelAdapterFor } from './channel-adapter-for.decorator';

/** The adapters by channel kind, found by @ChannelAdapterFor like tools and actions. */
@Injectable()
export class ChannelAdapters implements OnModuleInit {
  private readonly logger = new Logger(ChannelAdapters.name);
  private adapters = new Map<string, ChannelAdapter>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.adapters = discoverMarked<AdapterKind, ChannelAdapter, ChannelAdapter>(this.discovery, this.logger, {
      marker: ChannelAdapterFor,
      nameOf: (kind) => kind,
      method: 'sendPart',
      plural: 'channel adapters',
      invalid: (className, name) => new Error(`${className} is marked as the "${name}" channel adapter but has no sendPart method.`),
      duplicate: (name, classes) => new Error(`Two channel adapters for "${name}": ${classes.join(', ')}.`),
      build: (found) => found.instance,
    });
  }

  get(kind: AdapterKind): ChannelAdapter {
    const adapter = this.adapters.get(kind);
    if (!adapter) throw new Error(`No channel adapter for "${kind}" is registered in this worker.`);
    return adapter;
  }
}
