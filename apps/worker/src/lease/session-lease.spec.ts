import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SessionLeases } from './session-lease';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('SessionLeases (real Redis)', () => {
  let redis: Redis;
  const prefix = `sbt-lease-${randomBytes(4).toString('hex')}`;

  beforeAll(() => {
    redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('gives a session to one holder at a time and frees it on release', async () => {
    const leases = new SessionLeases(redis, { prefix, ttlMs: 5_000 });
    const a = await leases.acquire('s1');
    expect(a).not.toBeNull();
    expect(await leases.acquire('s1')).toBeNull();
    expect(await leases.acquire('s2')).not.toBeNull();
    await a!.release();
    const b = await leases.acquire('s1');
    expect(b).not.toBeNull();
    await b!.release();
  });

  it('never releases a lease another holder took after ours expired', async () => {
    const leases = new SessionLeases(redis, { prefix, ttlMs: 1_000 });
    const stale = await leases.acquire('s3');
    // Simulate a holder that stalled past its TTL: the key expires and someone else takes it.
    await redis.del(leases.key('s3'));
    const fresh = await leases.acquire('s3');
    expect(fresh).not.toBeNull();

    expect(await stale!.renew()).toBe(false);
    expect(stale!.isHeld).toBe(false);
    await stale!.release();
    expect(await redis.get(leases.key('s3'))).toBe(fresh!.token);
    await fresh!.release();
    expect(await redis.get(leases.key('s3'))).toBeNull();
  });

  it('keeps a lease alive past its TTL while the holder runs', async () => {
    const leases = new SessionLeases(redis, { prefix, ttlMs: 600 });
    const lease = await leases.acquire('s4');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(lease!.isHeld).toBe(true);
    expect(await redis.get(leases.key('s4'))).toBe(lease!.token);
    expect(await leases.acquire('s4')).toBeNull();
    await lease!.release();
  });
});
