import Redis from 'ioredis';
import { Client } from 'pg';
import { BENCHES, parseArgs, runBenches, type BenchName } from '../../../bench/run';
import { BenchEnv } from '../../../bench/support/bench-env';
import type { BenchResult } from '../../../bench/support/results';
import { scanKeys } from '../../support/queue-keys';
import { ADMIN_DATABASE_URL } from '../../support/test-database';

// Benchmarks are not tests; this keeps them working. Each bench runs at a tiny size with the apps
// started from source (no build), writes nothing, and must leave no database or Redis key behind.

const BENCH_TIMEOUT_MS = 240_000;

async function leftoverDatabases(names: string[]): Promise<string[]> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1::text[])', [names]);
    return rows.map((r) => r.datname);
  } finally {
    await c.end();
  }
}

async function leftoverKeys(redisUrl: string, prefix: string): Promise<string[]> {
  const redis = new Redis(redisUrl);
  try {
    return await scanKeys(redis, `${prefix}*`);
  } finally {
    redis.disconnect();
  }
}

function expectWellFormed(r: BenchResult): void {
  expect(r.tables.length).toBeGreaterThan(0);
  for (const t of r.tables) {
    expect(t.rows.length).toBeGreaterThan(0);
    for (const row of t.rows) expect(row).toHaveLength(t.columns.length);
  }
  expect(r.targets.length).toBeGreaterThan(0);
  // Smoke sizes prove nothing about speed: no target may be judged on them.
  for (const t of r.targets) expect(t.met).toBeNull();
}

describe('benchmarks at smoke size', () => {
  it('reads its arguments strictly', () => {
    expect(parseArgs(['--smoke', '--only=engine'])).toMatchObject({ only: ['engine'], smoke: true, build: false, write: false });
    expect(parseArgs(['--dashboard-rows=1000000,10_000_000', '--no-build'])).toMatchObject({ dashboardRows: [1_000_000, 10_000_000], build: false, write: true });
    expect(() => parseArgs(['--only=nope'])).toThrow(/unknown bench nope/);
    expect(() => parseArgs(['--fast'])).toThrow(/unknown argument/);
  });

  it.each(BENCHES.map((b) => [b]))(
    '%s runs, reports, and cleans up after itself',
    async (bench: BenchName) => {
      const before = BenchEnv.created.length;
      const results = await runBenches(parseArgs(['--smoke', `--only=${bench}`]), () => undefined);
      expect(results.length).toBeGreaterThan(0);
      results.forEach(expectWellFormed);

      const envs = BenchEnv.created.slice(before);
      if (bench !== 'engine') expect(envs.length).toBeGreaterThan(0);
      expect(await leftoverDatabases(envs.map((e) => e.databaseName))).toEqual([]);
      for (const e of envs) expect(await leftoverKeys(e.redisUrl, e.queuePrefix)).toEqual([]);
    },
    BENCH_TIMEOUT_MS,
  );
});
