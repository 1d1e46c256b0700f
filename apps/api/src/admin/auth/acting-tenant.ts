import type { PrismaService } from '@switchboard/db';
import { BadRequestError, ForbiddenError } from '../../common/errors';
import { isUuid } from '../list-query/filters';
import type { AdminUser } from './admin-user';

/** The header a platform admin sends to see and act in one tenant (the console's tenant switcher). */
export const TENANT_HEADER = 'x-tenant-id';

/**
 * The tenant a request acts in when a platform admin names one with X-Tenant-Id: checked here so
 * every scoped query (tenantScope) and every create (targetTenant) reads it from the user. Any
 * other role sending the header is refused (403), so a stale console setting cannot go unnoticed.
 */
export async function actingTenant(prisma: PrismaService, user: AdminUser, header: string | string[] | undefined): Promise<string | undefined> {
  if (header === undefined || header === '') return undefined;
  if (user.role !== 'platform_admin') {
    throw new ForbiddenError('tenant-switch-forbidden', 'Only platform admins may pick a tenant with X-Tenant-Id; leave the header out.');
  }
  if (typeof header !== 'string' || !isUuid(header)) {
    throw new BadRequestError('invalid-tenant-header', 'X-Tenant-Id must be one tenant uuid.');
  }
  const tenant = await prisma.tenant.findUnique({ where: { id: header }, select: { id: true } });
  if (!tenant) throw new BadRequestError('unknown-tenant', `No tenant with id "${header}" (X-Tenant-Id).`);
  return tenant.id;
}
