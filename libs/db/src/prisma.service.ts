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
