import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { TenantSuspendedError } from './tenant-suspended.error';

/**
 * How long one API process trusts a tenant's status: ingest asks on every message, and this
 * saves that read. The process that changes a status forgets it at once; other processes
 * notice within this time (the same window as the API key cache, docs/admin-api.md).
 */
export const TENANT_STATUS_CACHE_MS = 5_000;
const MAX_CACHED_TENANTS = 10_000;

/** Whether a tenant is suspended, for the API's channel entry points (keys, widget, platforms). */
@Injectable()
export class TenantStatuses {
  private readonly suspended = new Map<string, { value: boolean; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  /** Throws TenantSuspendedError (403 `tenant-suspended`) when the tenant is suspended. */
  async assertActive(tenantId: string): Promise<void> {
    if (await this.isSuspended(tenantId)) throw new TenantSuspendedError();
  }

  async isSuspended(tenantId: string, now = Date.now()): Promise<boolean> {
    const cached = this.suspended.get(tenantId);
    if (cached && cached.until > now) return cached.value;
    const tenant = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { status: true } });
    const value = tenant?.status === 'suspended';
    if (this.suspended.size >= MAX_CACHED_TENANTS) this.suspended.clear();
    this.suspended.set(tenantId, { value, until: now + TENANT_STATUS_CACHE_MS });
    return value;
  }

  /** After a status change in this process: the next check reads the database. */
  forget(tenantId: string): void {
    this.suspended.delete(tenantId);
  }
}
