import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { TRANSACTION_OPTIONS } from './create-prisma-client';
import { PrismaClient } from './generated/prisma/client';

export const DATABASE_URL = Symbol('DATABASE_URL');

/** The one Prisma client of a process; connects on start, disconnects on shutdown. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(connectionString: string, poolMax = 10) {
    super({ adapter: new PrismaPg({ connectionString, max: poolMax }), transactionOptions: TRANSACTION_OPTIONS });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
