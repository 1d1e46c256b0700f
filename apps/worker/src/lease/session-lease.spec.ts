import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { ensureRuntimeSchema, LEASES_TABLE } from '@switchboard/queue';
import type { LeaseStore } from './lease-store';
import { PostgresLeaseStore } from './postgres-lease-store';
import { RedisLeaseStore } from './redis-lease-store';
import { SessionLeases } from './session-lease';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// The unit project has no globalSetup database: the lease table lives in its own schema of the
// server's default database, keys prefixed per run.
const databaseUrl = process.env.LEASE_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

interface Backend {
  store: LeaseStore;
  /** What the store holds for `key` now (null when free), read around the store. */
  holder(key: string): Promise<string | null>;
  /** Makes `key` expire now, as if its holder stalled past the TTL. */
  expire(key: string): Promise<void>;
  close(): Promise<void>;
}

async function redisBackend(prefix: string): Promise<Backend> {
  const redis = new Redis(redisUrl);
  return {
    store: new RedisLeaseStore(redis),
    holder: (key) => redis.get(key),
    expire: async (key) => void (await redis.del(key)),
    close: async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}

async function postgresBackend(prefix: string): Promise<Backend> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  await ensureRuntimeSchema(pool);
  return {
    store: new PostgresLeaseStore(pool),
    holder: async (key) => {
      const res = await pool.query<{ token: string }>(`SELECT token FROM ${LEASES_TABLE} WHERE key = $1 AND expires_at > clock_timestamp()`, [key]);
      return res.rows[0]?.token ?? null;
    },
    expire: async (key) => void (await pool.query(`UPDATE ${LEASES_TABLE} SET expires_at = clock_timestamp() - interval '1 second' WHERE key = $1`, [key])),
    close: async () => {
      await pool.query(`DELETE FROM ${LEASES_TABLE} WHERE key LIKE $1`, [`${prefix}:%`]);
      await pool.end();
    },
  };
}

describe.each([
  ['Redis', redisBackend],
  ['Postgres', postgresBackend],
])('SessionLeases (real %s)', (_name, makeBackend) => {
  let backend: Backend;
  const prefix = `sbt-lease-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    backend = await makeBackend(prefix);
  });
  afterAll(async () => {
    await backend.close();
  });

  it('gives a session to one holder at a time and frees it on release', async () => {
    const leases = new SessionLeases(backend.store, { prefix, ttlMs: 5_000 });
    const a = await leases.acquire('s1');
    expect(a).not.toBeNull();
    expect(await leases.acquire('s1')).toBeNull();
    expect(await leases.acquire('s2')).not.toBeNull();
    await a!.release();
    const b = await leases.acquire('s1');
    expect(b).not.toBeNull();
    await b!.release();
  });

  it('lets exactly one of many concurrent takers win', async () => {
    const leases = new SessionLeases(backend.store, { prefix, ttlMs: 5_000 });
    const results = await Promise.all(Array.from({ length: 10 }, () => leases.acquire('s-race')));
    const winners = results.filter((l) => l !== null);
    expect(winners).toHaveLength(1);
    await winners[0]!.release();
  });

  it('never releases a lease another holder took after ours expired', async () => {
    const leases = new SessionLeases(backend.store, { prefix, ttlMs: 1_000 });
    const stale = await leases.acquire('s3');
    // Simulate a holder that stalled past its TTL: the lease expires and someone else takes it.
    await backend.expire(leases.key('s3'));
    const fresh = await leases.acquire('s3');
    expect(fresh).not.toBeNull();

    expect(await stale!.renew()).toBe(false);
    expect(stale!.isHeld).toBe(false);
    await stale!.release();
    expect(await backend.holder(leases.key('s3'))).toBe(fresh!.token);
    await fresh!.release();
    expect(await backend.holder(leases.key('s3'))).toBeNull();
  });

  it('frees a lease whose holder stopped renewing once its TTL passes', async () => {
    const key = `${prefix}:lock:expiry`;
    expect(await backend.store.take(key, 'first', 300)).toBe(true);
    expect(await backend.store.take(key, 'second', 300)).toBe(false);
    await new Promise((r) => setTimeout(r, 600));
    expect(await backend.store.take(key, 'second', 300)).toBe(true);
    expect(await backend.store.renew(key, 'first', 300)).toBe(false);
    expect(await backend.holder(key)).toBe('second');
  });

  it('keeps a lease alive past its TTL while the holder runs', async () => {
    const leases = new SessionLeases(backend.store, { prefix, ttlMs: 600 });
    const lease = await leases.acquire('s4');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(lease!.isHeld).toBe(true);
    expect(await backend.holder(leases.key('s4'))).toBe(lease!.token);
    expect(await leases.acquire('s4')).toBeNull();
    await lease!.release();
  });
});
