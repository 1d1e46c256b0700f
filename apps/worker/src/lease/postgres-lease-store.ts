import { LEASES_TABLE, type SqlRunner } from '@switchboard/queue';
import type { LeaseStore } from './lease-store';

/**
 * Leases as rows of sb_runtime.leases (Postgres mode). Time is the database's clock, the same
 * for every process. An expired row counts as free: taking it overwrites it, renewing it fails,
 * just as an expired Redis key is gone.
 */
export class PostgresLeaseStore implements LeaseStore {
  readonly sharesAppDatabase = true;

  constructor(private readonly db: SqlRunner) {}

  // sb_lease_and_turn_state (migration 20261206150000) takes a session's lease with this same statement.
  async take(key: string, token: string, ttlMs: number): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO ${LEASES_TABLE} AS l (key, token, expires_at)
       VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= clock_timestamp()
       RETURNING key`,
      [key, token, ttlMs],
    );
    return res.rowCount === 1;
  }

  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE ${LEASES_TABLE} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE key = $1 AND token = $2 AND expires_at > clock_timestamp()`,
      [key, token, ttlMs],
    );
    return res.rowCount === 1;
  }

  async release(key: string, token: string): Promise<void> {
    await this.db.query(`DELETE FROM ${LEASES_TABLE} WHERE key = $1 AND token = $2`, [key, token]);
  }
}
