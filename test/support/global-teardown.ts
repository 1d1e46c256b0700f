import type { ApiProcess } from './api-process';
import { stopApi } from './api-process';
import { dropDatabase } from './test-database';
import { deleteQueueKeys } from './queue-keys';

export default async function globalTeardown(): Promise<void> {
  const api = (globalThis as { __TEST_API__?: ApiProcess }).__TEST_API__;
  // The API holds pool connections to the test database: stop it before dropping the database.
  if (api) await stopApi(api.child);
  await deleteQueueKeys(process.env.QUEUE_PREFIX ?? '');
  const name = process.env.TEST_DATABASE_NAME;
  if (name) await dropDatabase(name);
}
