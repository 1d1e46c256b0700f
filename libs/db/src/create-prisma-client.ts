import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export interface PrismaClientOptions {
  connectionString: string;
  /** Pool size of the pg driver. */
  max?: number;
}

export function createPrismaClient(opts: PrismaClientOptions): PrismaClient {
  const adapter = new PrismaPg({ connectionString: opts.connectionString, max: opts.max ?? 10 });
  return new PrismaClient({ adapter });
}
