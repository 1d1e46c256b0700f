import { EnvValidationError } from '@switchboard/config';
import { loadWorkerEnv } from './worker-env';

describe('loadWorkerEnv', () => {
  it('gives the shared and worker-only variables with their defaults', () => {
    const env = loadWorkerEnv({ QUEUE_PREFIX: 'x', SWEEPER_GRACE_MS: '' });
    expect(env).toMatchObject({
      QUEUE_PREFIX: 'x',
      WORKER_CONCURRENCY: 8,
      SESSION_LEASE_TTL_MS: 4_000,
      TURN_LOCK_DURATION_MS: 4_000,
      TURN_STALLED_INTERVAL_MS: 1_000,
      SWEEPER_INTERVAL_MS: 30_000,
      SWEEPER_GRACE_MS: 60_000,
    });
  });

  it('fails naming the bad variable', () => {
    expect(() => loadWorkerEnv({ SESSION_LEASE_TTL_MS: '10' })).toThrow(EnvValidationError);
    expect(() => loadWorkerEnv({ SESSION_LEASE_TTL_MS: '10' })).toThrow(/SESSION_LEASE_TTL_MS/);
    expect(() => loadWorkerEnv({ WORKER_CONCURRENCY: 'many' })).toThrow(/WORKER_CONCURRENCY/);
  });
});
