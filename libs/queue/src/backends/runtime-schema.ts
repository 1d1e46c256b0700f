/**
 * Postgres mode keeps the state Redis holds in production (session leases, the sweeper's
 * single-runner lock, rate-limit counters) in a schema of its own, beside the app's tables and
 * outside the migrations: it is scratch state, created by whichever process starts first.
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
      `CREATE TABLE IF NOT EXISTS ${LEASES_TABLE} (key text PRIMARY KEY, token text NOT NULL, expires_at timestamptz NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${RUNTIME_SCHEMA}.${RATE_LIMITS_TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
