import { createMigratedDatabase, uniqueName } from './test-database';

// Integration tests share one migrated database per `jest` run; it is dropped in globalTeardown.
// Values set on process.env here reach every test worker (they are forked afterwards).
export default async function globalSetup(): Promise<void> {
  const name = uniqueName('sb_test');
  process.env.TEST_DATABASE_NAME = name;
  process.env.DATABASE_URL = await createMigratedDatabase(name);
  process.env.QUEUE_PREFIX = `sbt-${name}`;
  process.env.REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.NODE_ENV = 'test';
}
