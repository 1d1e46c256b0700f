import { PrismaPg } from '@prisma/adapter-pg';
import { CountingPool } from './counting-pool';
import { PrismaClient } from './generated/prisma/client';

export interface PrismaClientOptions {
  connectionString: string;
  /** Pool size of the pg driver. */
  max?: number;
}

/**
 * Interactive transactions wait up to 10 s for a pooled connection (Prisma's default is 2 s): a
 * busy pool under a burst is a wait, not a 503. A database that is down still fails at connect.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** Prisma on a pool of our own (a CountingPool), which Prisma ends on $disconnect. */
export function countedAdapter(pool: CountingPool): PrismaPg {
  return new PrismaPg(pool, { disposeExternalPool: true });
}

export function createPrismaClient(opts: PrismaClientOptions): PrismaClient {
  const adapter = countedAdapter(new CountingPool({ connectionString: opts.connectionString, max: opts.max ?? 10 }));
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
}
