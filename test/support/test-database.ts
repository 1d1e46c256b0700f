import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

// Each test run gets its own database, created from the admin URL and dropped afterwards, so
// runs (and parallel developers) never see each other's rows.

export const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const u = new URL(ADMIN_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

async function withAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function createDatabase(name: string): Promise<string> {
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Creates a database and applies every migration to it. */
export async function createMigratedDatabase(name: string): Promise<string> {
  const url = await createDatabase(name);
  // scripts/migrate.js is plain CommonJS shared with the demo and CI.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migrate } = require('../../scripts/migrate.js') as { migrate: (url: string) => void };
  migrate(url);
  return url;
}
