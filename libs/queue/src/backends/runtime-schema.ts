/**
 * Postgres mode keeps the state Redis holds in production (session leases, the sweeper's
 * single-runner lock, rate-limit counters) in a schema of its own, beside the app's tables and
 * outside the migrations: it is scratch state, created by whichever process starts first.
 *
 * Its tables are UNLOGGED: their writes skip the WAL, and a statement that writes nothing else
 * commits without waiting for a WAL flush. Every lease taken and let go and every rate-limit and
 * fair-share count is such a statement; logged, they were about a tenth of Postgres mode's CPU per
 * message (docs/hot-path.md, round ten). The price is Redis's: a Postgres crash empties them, and
 * a standby never has them. That is a Redis flush. A lease holder's next renewal then fails and
 * its drain stops (the session's version check guards any commit in flight), and the rate-limit
 * windows start again.
 */
export const RUNTIME_SCHEMA = 'sb_runtime';
export const LEASES_TABLE = `${RUNTIME_SCHEMA}.leases`;
/** rate-limiter-flexible's RateLimiterPostgres table (its own column layout). */
export const RATE_LIMITS_TABLE = 'rate_limits';

/** The least of a node-postgres Pool or Client this needs. */
export interface SqlRunner {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount?: number | null }>;
}

// Any fixed number, the same in every process: serializes the first CREATE of the schema.
const DDL_LOCK = 727_110_301;

/** Creates the runtime schema and tables if missing. Safe when several processes start at once. */
export async function ensureRuntimeSchema(db: { connect(): Promise<SqlRunner & { release(): void }> }): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [DDL_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${RUNTIME_SCHEMA}`);
    await client.query(
      `CREATE UNLOGGED TABLE IF NOT EXISTS ${LEASES_TABLE} (key text PRIMARY KEY, token text NOT NULL, expires_at timestamptz NOT NULL)`,
    );
    await client.query(
      `CREATE UNLOGGED TABLE IF NOT EXISTS ${RUNTIME_SCHEMA}.${RATE_LIMITS_TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
    );
    // Made by an earlier version as ordinary tables: rewritten once as unlogged, rows kept.
    for (const table of [LEASES_TABLE, `${RUNTIME_SCHEMA}.${RATE_LIMITS_TABLE}`]) {
      const { rows } = await client.query(`SELECT relpersistence FROM pg_class WHERE oid = $1::regclass`, [table]);
      if ((rows[0] as { relpersistence: string }).relpersistence === 'p') await client.query(`ALTER TABLE ${table} SET UNLOGGED`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
