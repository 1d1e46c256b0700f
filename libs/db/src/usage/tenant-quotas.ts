import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { monthToDateUsage, quotaState, type QuotaState } from './monthly-usage';

/**
 * How long one instance trusts a tenant's quota verdict. Usage only grows by whole turns and the
 * roll-up lags the turn anyway, so a few seconds of staleness costs at most a few messages past
 * the quota, and saves two queries on almost every ingest request.
 */
export const QUOTA_CACHE_MS = 5_000;
const MAX_CACHED_TENANTS = 10_000;

/**
 * Monthly per-tenant quotas on model calls and tokens (Tenant.monthlyLlmCallQuota /
 * monthlyTokenQuota, null = unlimited), checked against this month's usage roll-up; the verdict
 * is cached for QUOTA_CACHE_MS. Used by every way a customer message comes in.
 */
@Injectable()
export class TenantQuotas {
  private readonly verdicts = new Map<string, { state: QuotaState | null; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  /** The tenant's quota state, null when it has no quota. */
  async verdict(tenantId: string): Promise<QuotaState | null> {
    const now = Date.now();
    const cached = this.verdicts.get(tenantId);
    if (cached && cached.until > now) return cached.state;
    const tenant = await this.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true },
    });
    const state =
      !tenant || (tenant.monthlyLlmCallQuota === null && tenant.monthlyTokenQuota === null)
        ? null
        : quotaState(await monthToDateUsage(this.prisma, tenantId), tenant);
    if (this.verdicts.size >= MAX_CACHED_TENANTS) this.verdicts.clear();
    this.verdicts.set(tenantId, { state, until: now + QUOTA_CACHE_MS });
    return state;
  }
}
