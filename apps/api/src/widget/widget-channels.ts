import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { isWidgetPublicId } from './widget-public-id';
import { readWidgetSettings, type WidgetSettings } from './widget-settings';

/** A widget channel as its public routes need it. */
export interface WidgetChannel {
  publicId: string;
  channelId: string;
  tenantId: string;
  agentId: string;
  settings: WidgetSettings;
}

/** How long a looked-up channel is trusted; an edit through this API process forgets it at once. */
export const WIDGET_CACHE_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/**
 * Finds widget channels by public id, for a few seconds from memory: every widget request (and
 * every CORS preflight) needs the channel's allowed origins. Unknown ids are cached too (as
 * null), so a page hammering a deleted widget costs one query per TTL, not one per request.
 */
@Injectable()
export class WidgetChannels {
  private readonly cache = new Map<string, { channel: WidgetChannel | null; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  async find(publicId: string): Promise<WidgetChannel | null> {
    if (!isWidgetPublicId(publicId)) return null;
    const now = Date.now();
    const hit = this.cache.get(publicId);
    if (hit && hit.until > now) return hit.channel;
    const row = await this.prisma.channel.findUnique({
      where: { publicId },
      select: { id: true, tenantId: true, agentId: true, kind: true, settings: true },
    });
    const settings = row?.kind === 'widget' ? readWidgetSettings(row.settings) : null;
    const channel = row && settings ? { publicId, channelId: row.id, tenantId: row.tenantId, agentId: row.agentId, settings } : null;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(publicId, { channel, until: now + WIDGET_CACHE_TTL_MS });
    return channel;
  }

  /** Drops a channel's entry after an edit or a delete in the console. */
  forget(publicId: string | null | undefined): void {
    if (publicId) this.cache.delete(publicId);
  }
}
