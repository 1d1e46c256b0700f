import type { AdminUser } from './auth/admin-user';

/**
 * The where fragment that keeps a user inside their tenant: nothing for platform admins (who see
 * every tenant, or the one they picked with X-Tenant-Id), `tenantId = <theirs>` for everyone
 * else. Every admin query ANDs it in, so a row of another tenant reads as "not found".
 */
export function tenantScope(user: AdminUser): { tenantId?: string } {
  // A platform admin who picked a tenant (X-Tenant-Id) sees only that tenant.
  if (user.role === 'platform_admin') return user.actingTenantId ? { tenantId: user.actingTenantId } : {};
  // The guard refuses tenant-less users other than platform admins; this is the backstop.
  if (!user.tenantId) throw new Error(`User ${user.id} has role ${user.role} but no tenant`);
  return { tenantId: user.tenantId };
}
