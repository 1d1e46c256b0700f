import type { PrismaClient } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { exactLatency } from './turn-figures';
import { MAX_EXACT_DAYS, rangeFromFilter } from './usage-range';

/**
 * The usage summary's percentiles computed from the turns, when its filter is a from..to range
 * of at most MAX_EXACT_DAYS days; null otherwise (the summary then keeps the roll-up's bucket
 * bounds). The list query itself was validated by the caller.
 */
export async function exactSummaryLatency(prisma: PrismaClient, user: AdminUser, query: Record<string, unknown>) {
  if (typeof query.filter !== 'string') return null;
  const range = rangeFromFilter(user, query.filter, { strict: false });
  if (!range || range.days > MAX_EXACT_DAYS) return null;
  const { p50, p95, p99 } = await adminTransaction(prisma, user, (tx) => exactLatency(tx, range));
  return { p50, p95, p99 };
}
