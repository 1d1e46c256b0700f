import { DEV_AUTH_SECRET, DEV_MASTER_KEY } from './env.schema';
import { EnvValidationError, loadEnv } from './load-env';

describe('loadEnv secrets', () => {
  it('uses the development defaults outside production', () => {
    const env = loadEnv({ NODE_ENV: 'development' });
    expect(env.AUTH_SECRET).toBe(DEV_AUTH_SECRET);
    expect(env.MASTER_KEY).toBe(DEV_MASTER_KEY);
  });

  it('refuses production without its own AUTH_SECRET and MASTER_KEY, naming both', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(EnvValidationError);
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET: is not set.*MASTER_KEY: is not set/);
  });

  it('accepts production with real secrets, the key as hex or base64', () => {
    const AUTH_SECRET = 'a'.repeat(40);
    expect(loadEnv({ NODE_ENV: 'production', AUTH_SECRET, MASTER_KEY: 'ab'.repeat(32) }).MASTER_KEY).toBe('ab'.repeat(32));
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadEnv({ NODE_ENV: 'production', AUTH_SECRET, MASTER_KEY: b64 }).MASTER_KEY).toBe(b64);
  });

  it('refuses a short AUTH_SECRET and a master key of the wrong size', () => {
    expect(() => loadEnv({ AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET: must be at least 32 characters/);
    expect(() => loadEnv({ MASTER_KEY: 'abcd' })).toThrow(/MASTER_KEY: must be 32 bytes/);
  });
});

describe('loadEnv queue backend', () => {
  it('runs on Redis when REDIS_URL is set and on Postgres when it is not', () => {
    expect(loadEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }).QUEUE_BACKEND).toBe('redis');
    expect(loadEnv({}).QUEUE_BACKEND).toBe('postgres');
    expect(loadEnv({ REDIS_URL: '' }).QUEUE_BACKEND).toBe('postgres');
  });

  it('lets QUEUE_BACKEND override the choice and refuses an unknown one', () => {
    expect(loadEnv({ REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_BACKEND: 'postgres' }).QUEUE_BACKEND).toBe('postgres');
    expect(() => loadEnv({ QUEUE_BACKEND: 'kafka' })).toThrow(/QUEUE_BACKEND/);
  });
});

describe('loadEnv metrics', () => {
  it('serves the API metrics on their own loopback port by default, with no token', () => {
    const env = loadEnv({});
    expect([env.API_METRICS_PORT, env.API_METRICS_HOST, env.METRICS_TOKEN]).toEqual([9465, '127.0.0.1', undefined]);
  });

  it('refuses a short METRICS_TOKEN and a port out of range, naming the variable', () => {
    expect(() => loadEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadEnv({ API_METRICS_PORT: '70000' })).toThrow(/API_METRICS_PORT/);
  });
});
