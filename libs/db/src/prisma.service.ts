import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { countedAdapter, TRANSACTION_OPTIONS } from './create-prisma-client';
import { CountingPool } from './counting-pool';
import { PrismaClient } from './generated/prisma/client';

export const DATABASE_URL = Symbol('DATABASE_URL');

/** The one Prisma client of a process; connects on start, disconnects on shutdown. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  private readonly pool: CountingPool;

  constructor(connectionString: string, poolMax = 10) {
    const pool = new CountingPool({ connectionString, max: poolMax });
    super({ adapter: countedAdapter(pool), transactionOptions: TRANSACTION_OPTIONS });
    this.pool = pool;
  }

  /**
   * A raw query as a named prepared statement on the client's own pool, past Prisma: Postgres
   * parses and plans it once per connection instead of on every call (the claim-and-load's plan
   * cost more than running it), and the worker skips Prisma's per-query work. For the worker's
   * two statements per message (docs/hot-path.md); `name` must always come with the same text.
   * Rows come as node-postgres gives them (json and jsonb parsed, timestamps as Date).
   */
  async queryPrepared<T>(name: string, sql: { text: string; values: unknown[] }): Promise<T[]> {
    return (await this.pool.query({ name, text: sql.text, values: sql.values })).rows as T[];
  }

  /** Postgres round trips this client has made (statements sent), for `switchboard_pg_round_trips_total`. */
  get roundTrips(): number {
    return this.pool.sent;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
