import { BadRequestError } from '../../common/errors';
import type { AdminUser } from '../auth/admin-user';
import { isUuid } from '../list-query/filters';

/**
 * The tenant a request acts for (a new row, a quota read): the user's own tenant, or for a platform admin (who has
 * none) the `tenantId` they name. A tenant user naming another tenant is refused as unknown.
 */
export function targetTenant(user: AdminUser, requested: string | undefined): string {
  if (user.role === 'platform_admin') {
    // The tenant picked with X-Tenant-Id stands in for a body that names none.
    requested ??= user.actingTenantId;
    if (!requested || !isUuid(requested)) {
      throw new BadRequestError('tenant-required', 'Platform admins act for a tenant they name: send "tenantId" (a tenant uuid).');
    }
    return requested;
  }
  if (!user.tenantId) throw new Error(`User ${user.id} has role ${user.role} but no tenant`);
  if (requested !== undefined && requested !== user.tenantId) {
    throw new BadRequestError('invalid-tenant', 'You can only act in your own tenant; leave "tenantId" out.');
  }
  return user.tenantId;
}
