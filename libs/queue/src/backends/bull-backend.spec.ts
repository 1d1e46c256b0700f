import { loadEnv } from '@switchboard/config';
import { bullPostgresConnection, bullSchema } from './bull-backend';

describe('bullPostgresConnection', () => {
  const base = { QUEUE_BACKEND: 'postgres' as const, REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x', QUEUE_PREFIX: 'sb' };

  it('sizes each BullMQ pool by QUEUE_PG_POOL_MAX, 4 when the env was built without it', () => {
    expect(bullPostgresConnection(base).max).toBe(4);
    expect(bullPostgresConnection({ ...base, QUEUE_PG_POOL_MAX: 1 }).max).toBe(1);
  });

  it('reads QUEUE_PG_POOL_MAX from the validated env, and refuses 0', () => {
    expect(bullPostgresConnection(loadEnv({ QUEUE_PG_POOL_MAX: '2' })).max).toBe(2);
    expect(() => loadEnv({ QUEUE_PG_POOL_MAX: '0' })).toThrow(/QUEUE_PG_POOL_MAX/);
  });

  it('keeps the queue tables in the schema named after the prefix', () => {
    expect(bullPostgresConnection(base).schema).toBe('bullmq_sb');
    expect(bullSchema('Test-Run.7')).toBe('bullmq_test_run_7');
    expect(bullSchema('p'.repeat(80))).toHaveLength(63);
  });
});
