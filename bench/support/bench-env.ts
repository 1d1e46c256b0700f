import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createPrismaClient, type PrismaClient } from '@switchboard/db';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../test/support/test-database';
import type { BenchSize } from './results';

/**
 * A fresh migrated database and a unique Redis key prefix for one bench, so a bench never sees
 * another run's rows or jobs; `dispose` drops the database and deletes every key of the prefix.
 */
export class BenchEnv {
  /** Every environment created in this process, so the smoke test can check each was cleaned up. */
  static readonly created: { databaseName: string; queuePrefix: string; redisUrl: string }[] = [];
  private readonly clients: PrismaClient[] = [];

  private constructor(
    private readonly size: BenchSize,
    readonly databaseName: string,
    readonly databaseUrl: string,
    readonly redisUrl: string,
    readonly queuePrefix: string,
  ) {}

  static async create(label: string, size: BenchSize): Promise<BenchEnv> {
    const name = uniqueName(`sb_bench_${label}`);
    const url = await createMigratedDatabase(name);
    const env = new BenchEnv(size, name, url, process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `sbb-${name}`);
    BenchEnv.created.push({ databaseName: name, queuePrefix: env.queuePrefix, redisUrl: env.redisUrl });
    return env;
  }

  /** A Prisma client on the bench database; disconnected by dispose. */
  prisma(max = 4): PrismaClient {
    const client = createPrismaClient({ connectionString: this.databaseUrl, max });
    this.clients.push(client);
    return client;
  }

  /**
   * What the API and worker processes need, production-like: their own secrets, quiet logs, and
   * ingest rate limits raised to their maximum — the limiter still runs on every request, but a
   * bench measures capacity, not the per-minute allowance.
   */
  appEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      RATE_LIMIT_KEY_PER_MINUTE: '1000000',
      RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redisUrl,
      QUEUE_PREFIX: this.queuePrefix,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      MASTER_KEY: randomBytes(32).toString('hex'),
      // At smoke size the bench runs inside `npm test`, beside suites with processes of their own
      // on the same Postgres (100 connections) and a few messages to answer: the smallest pools.
      // Its Postgres-mode API and worker with the default ones (10, and 4 for each of the
      // worker's ~12 BullMQ objects), beside model-outage.spec's two workers in Postgres mode,
      // ran Postgres out of connections ("sorry, too many clients already"); with the test
      // harness's (5 and 2) they still held 35 of the 97.
      ...(this.size === 'smoke' && { DATABASE_POOL_MAX: '2', QUEUE_PG_POOL_MAX: '1' }),
      ...extra,
    };
  }

  async dispose(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.$disconnect().catch(() => undefined)));
    // Every key of the run starts with the unique prefix (benches add suffixes for their own queues).
    await deleteRedisKeys(this.redisUrl, this.queuePrefix);
    await dropDatabase(this.databaseName);
  }
}

/** Deletes every key starting with `prefix` (SCAN, not KEYS, so a shared Redis is not blocked). */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
