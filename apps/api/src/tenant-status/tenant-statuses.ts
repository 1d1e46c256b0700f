import { Injectable } from '@nestjs/common';
import { ExpiringCache, PrismaService } from '@switchboard/db';
import { TenantSuspendedError } from './tenant-suspended.error';

/**
 * How long one API process trusts a tenant's status: ingest asks on every message, and this
 * saves that read. The process that changes a status forgets it at once; other processes
 * notice within this time (the same window as the API key cache, docs/admin-api.md).
 */
export const TENANT_STATUS_CACHE_MS = 5_000;

/** Whether a tenant is suspended, for the API's channel entry points (keys, widget, platforms). */
@Injectable()
export class TenantStatuses {
  private readonly suspended = new ExpiringCache<boolean>(TENANT_STATUS_CACHE_MS);

  constructor(private readonly prisma: PrismaService) {}

  /** Throws TenantSuspendedError (403 `tenant-suspended`) when the tenant is suspended. */
  async assertActive(tenantId: string): Promise<void> {
    if (await this.isSuspended(tenantId)) throw new TenantSuspendedError();
  }

  isSuspended(tenantId: string): Promise<boolean> {
    return this.suspended.get(tenantId, async () => {
      const tenant = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { status: true } });
      return tenant?.status === 'suspended';
    });
  }

  /** After a status change in this process: the next check reads the database. */
  forget(tenantId: string): void {
    this.suspended.forget(tenantId);
  }
}
