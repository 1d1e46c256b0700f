import { withTenant, type PrismaClient, type TenantTx } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';

/**
 * One transaction for an admin request. A tenant user's runs under Postgres row-level security
 * (withTenant), so even a query that forgot its tenant `where` cannot read or write another
 * tenant's rows; a platform admin's runs unscoped, as platform admins see every tenant.
 */
export function adminTransaction<T>(prisma: PrismaClient, user: AdminUser, fn: (tx: TenantTx) => Promise<T>): Promise<T> {
  if (user.role === 'platform_admin') return prisma.$transaction(fn);
  // The guard refuses tenant-less users other than platform admins; this is the backstop.
  if (!user.tenantId) throw new Error(`User ${user.id} has role ${user.role} but no tenant`);
  return withTenant(prisma, user.tenantId, fn);
}
