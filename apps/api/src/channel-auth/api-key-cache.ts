import { Injectable } from '@nestjs/common';
import type { ChannelAuthContext } from './channel-auth.context';

/**
 * How long a verified key is trusted without asking the database again. Revoking a key (or
 * moving or deleting its channel) through this API process drops its entry at once; another API
 * process notices within this time. Documented in docs/admin-api.md.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
/** Keys remembered at most; the least recently used one goes first. */
const API_KEY_CACHE_SIZE = 10_000;

export interface CachedApiKey {
  auth: ChannelAuthContext;
  lastUsedAt: Date | null;
}

/**
 * Verified channel API keys by hash, for a few seconds: ingest checks a key on every request,
 * and this saves that query. Only keys found and not revoked are kept, so an unknown or revoked
 * key always costs a lookup (and a freshly revoked one cannot be served from here).
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, CachedApiKey & { until: number }>();

  get(keyHash: string, now = Date.now()): CachedApiKey | undefined {
    const hit = this.entries.get(keyHash);
    if (!hit) return undefined;
    this.entries.delete(keyHash);
    if (hit.until <= now) return undefined;
    this.entries.set(keyHash, hit); // Map order is the LRU order.
    return hit;
  }

  /** Remembers a verified key; returns the stored entry (its lastUsedAt may be updated in place). */
  set(keyHash: string, value: CachedApiKey, now = Date.now()): CachedApiKey {
    const entry = { ...value, until: now + API_KEY_CACHE_TTL_MS };
    this.entries.delete(keyHash);
    this.entries.set(keyHash, entry);
    while (this.entries.size > API_KEY_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /** Drops the entries of a revoked key. */
  forgetKey(apiKeyId: string): void {
    this.forget((e) => e.auth.apiKeyId === apiKeyId);
  }

  /** Drops the entries of a channel's keys (its agent changed, or it was deleted). */
  forgetChannel(channelId: string): void {
    this.forget((e) => e.auth.channelId === channelId);
  }

  private forget(match: (e: CachedApiKey) => boolean): void {
    for (const [hash, e] of this.entries) if (match(e)) this.entries.delete(hash);
  }
}
