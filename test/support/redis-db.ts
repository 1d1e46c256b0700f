import { Redis } from 'ioredis';

// Suites that flush Redis on purpose (the flush recovery test, the chaos suite) each take a
// Redis logical database of their own, so FLUSHDB there never touches another suite's keys.

export const CLAIM_KEY = 'sbt:db-claim';
export const CLAIM_TTL_MS = 10 * 60_000;

/** Takes an empty Redis logical database (15 down to 1) by setting a claim key in it with NX. */
export async function claimRedisDb(base: string, token: string): Promise<{ url: string; redis: Redis }> {
  for (let db = 15; db >= 1; db--) {
    const u = new URL(base);
    u.pathname = `/${db}`;
    const redis = new Redis(u.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    if ((await redis.set(CLAIM_KEY, token, 'PX', CLAIM_TTL_MS, 'NX')) === 'OK' && (await redis.dbsize()) === 1) {
      return { url: u.toString(), redis };
    }
    // Taken, or someone else's data lives there: leave it alone (our claim, if set, expires).
    if ((await redis.get(CLAIM_KEY)) === token) await redis.del(CLAIM_KEY);
    await redis.quit();
  }
  throw new Error('no free Redis logical database (1..15) to run on');
}

/** Empties the claimed database and claims it again (the flush removed the claim key too). */
export async function flushClaimedDb(redis: Redis, token: string): Promise<void> {
  await redis.flushdb();
  await redis.set(CLAIM_KEY, token, 'PX', CLAIM_TTL_MS);
}
