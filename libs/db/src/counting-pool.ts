import pg from 'pg';

/**
 * A pg pool that counts the statements it sends: every query of every pooled connection,
 * including those inside transactions (BEGIN and COMMIT count too), each one Postgres round trip.
 * The hot paths promise a number of them per message (docs/hot-path.md); the process's
 * `switchboard_pg_round_trips_total` reads `sent`, and a test holds the promise.
 */
export class CountingPool extends pg.Pool {
  private count = 0;

  constructor(config: pg.PoolConfig) {
    super(config);
    // Pool.query goes through a pooled client's query too, so counting there counts each once.
    this.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        this.count++;
        return query(...args);
      };
    });
  }

  /** Statements sent since the pool was made. */
  get sent(): number {
    return this.count;
  }
}
