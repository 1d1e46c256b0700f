import { readFileSync } from 'node:fs';

/** The test API's captured log (stdout and stderr), as written so far. */
export function apiLog(): string {
  const file = process.env.TEST_API_LOG;
  if (!file) throw new Error('TEST_API_LOG is not set: run these tests through the integration jest project.');
  return readFileSync(file, 'utf8');
}
