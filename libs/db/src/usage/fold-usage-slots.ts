import type { PrismaClient } from '../generated/prisma/client';

/**
 * Folds the usage roll-up slots of days before `before` (a UTC day) into slot 0: the database
 * function sb_fold_usage_slots (migration 20261202192000). Sums are unchanged, past days go
 * back to one row per (tenant, agent, day). Returns how many slot-0 rows it wrote.
 */
export async function foldUsageSlots(db: Pick<PrismaClient, '$queryRaw'>, before: Date): Promise<number> {
  const day = before.toISOString().slice(0, 10);
  const [row] = await db.$queryRaw<{ folded: number }[]>`SELECT sb_fold_usage_slots(${day}::date) AS folded`;
  return row.folded;
}
