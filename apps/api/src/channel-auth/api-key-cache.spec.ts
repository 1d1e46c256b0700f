import { API_KEY_CACHE_TTL_MS, ApiKeyCache } from './api-key-cache';

const auth = (apiKeyId: string, channelId: string) => ({ apiKeyId, tenantId: 't1', channelId, agentId: 'a1' });

describe('ApiKeyCache', () => {
  it('answers a verified key until the TTL is over, then asks for a new lookup', () => {
    const cache = new ApiKeyCache();
    cache.set('hash-1', { auth: auth('k1', 'c1'), lastUsedAt: null }, 1_000);
    expect(cache.get('hash-1', 1_000 + API_KEY_CACHE_TTL_MS - 1)?.auth.apiKeyId).toBe('k1');
    expect(cache.get('hash-1', 1_000 + API_KEY_CACHE_TTL_MS)).toBeUndefined();
    expect(cache.get('hash-1', 1_000)).toBeUndefined(); // an expired entry is dropped, not kept
  });

  it('forgets a revoked key, and every key of a changed or deleted channel, at once', () => {
    const cache = new ApiKeyCache();
    const now = 5_000;
    cache.set('hash-1', { auth: auth('k1', 'c1'), lastUsedAt: null }, now);
    cache.set('hash-2', { auth: auth('k2', 'c1'), lastUsedAt: null }, now);
    cache.set('hash-3', { auth: auth('k3', 'c2'), lastUsedAt: null }, now);

    cache.forgetKey('k3');
    expect(cache.get('hash-3', now)).toBeUndefined();
    expect(cache.get('hash-1', now)).toBeDefined();

    cache.forgetChannel('c1');
    expect(cache.get('hash-1', now)).toBeUndefined();
    expect(cache.get('hash-2', now)).toBeUndefined();
  });

  it('returns the stored entry, so a refreshed lastUsedAt is seen by the next request', () => {
    const cache = new ApiKeyCache();
    const stored = cache.set('hash-1', { auth: auth('k1', 'c1'), lastUsedAt: null }, 0);
    stored.lastUsedAt = new Date(10);
    expect(cache.get('hash-1', 1)?.lastUsedAt).toEqual(new Date(10));
  });
});
