import { startApi } from './api-process';
import { createMigratedDatabase, uniqueName } from './test-database';

// Integration tests share one migrated database and one API process per `jest` run; both are
// torn down in globalTeardown. Values set on process.env here reach every test worker (they are
// forked afterwards); globalThis is shared with globalTeardown only.
export default async function globalSetup(): Promise<void> {
  const name = uniqueName('sb_test');
  process.env.TEST_DATABASE_NAME = name;
  process.env.DATABASE_URL = await createMigratedDatabase(name);
  process.env.QUEUE_PREFIX = `sbt-${name}`;
  process.env.REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.NODE_ENV = 'test';

  // The fake model servers of the tests listen on 127.0.0.1: agents pointed at them publish.
  // Other loopback names and addresses (localhost, 127.0.0.2) stay refused, for the tests of that.
  // Platform keys as a deployment has them (publish checks that the worker would have a key); the
  // API never calls a provider, and no test reaches a real one.
  const platformKeys = { OPENAI_API_KEY: 'sk-test-platform-key-not-real', GEMINI_API_KEY: 'test-platform-gemini-key-not-real' };
  const api = await startApi({ ...process.env, ...platformKeys, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: process.env.TEST_API_LOG_LEVEL ?? 'info' }, name);
  (globalThis as { __TEST_API__?: typeof api }).__TEST_API__ = api;
  process.env.TEST_API_URL = api.baseUrl;
  process.env.TEST_API_METRICS_URL = api.metricsUrl;
  process.env.TEST_API_LOG = api.logFile;
}
