import { ensureRuntimeSchema, LEASES_TABLE, RATE_LIMITS_TABLE, RUNTIME_SCHEMA } from '@switchboard/queue';
import { Pool } from 'pg';
import { createDatabase, dropDatabase, uniqueName } from '../../support/test-database';

// Postgres mode's scratch state (leases, rate-limit and fair-share counts) lives in UNLOGGED
// tables (runtime-schema.ts says why), on a database of its own here: whether a table is logged is
// a property of the table, and the shared test database's tables are every suite's.

describe('the runtime schema (Postgres mode)', () => {
  const name = uniqueName('sbt_runtime');
  let pool: Pool;

  beforeAll(async () => {
    pool = new Pool({ connectionString: await createDatabase(name), max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(name);
  });

  const persistence = async (table: string): Promise<string> =>
    (await pool.query<{ relpersistence: string }>('SELECT relpersistence FROM pg_class WHERE oid = $1::regclass', [table])).rows[0].relpersistence;

  it('turns the ordinary tables of an earlier version into unlogged ones, keeping their rows, and makes new ones unlogged', async () => {
    // As an earlier version left it: the schema with an ordinary leases table, holding a lease.
    await pool.query(`CREATE SCHEMA ${RUNTIME_SCHEMA}`);
    await pool.query(`CREATE TABLE ${LEASES_TABLE} (key text PRIMARY KEY, token text NOT NULL, expires_at timestamptz NOT NULL)`);
    await pool.query(`INSERT INTO ${LEASES_TABLE} VALUES ('session:1', 'holder', now() + interval '1 minute')`);
    expect(await persistence(LEASES_TABLE)).toBe('p');

    await ensureRuntimeSchema(pool);

    expect(await persistence(LEASES_TABLE)).toBe('u');
    expect(await persistence(`${RUNTIME_SCHEMA}.${RATE_LIMITS_TABLE}`)).toBe('u');
    expect((await pool.query(`SELECT key, token FROM ${LEASES_TABLE}`)).rows).toEqual([{ key: 'session:1', token: 'holder' }]);

    // Every process runs it at start: again changes nothing.
    await ensureRuntimeSchema(pool);
    expect(await persistence(LEASES_TABLE)).toBe('u');
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${LEASES_TABLE}`)).rows).toEqual([{ n: 1 }]);
  });
});
