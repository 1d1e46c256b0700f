import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { hasLimits, monthOf, monthToDateUsage, quotaState, type QuotaState } from './monthly-usage';

/**
 * How long one instance trusts a tenant's quota verdict. Usage only grows by whole turns and the
 * roll-up lags the turn anyway, so a few seconds of staleness costs at most a few messages past
 * the quota, and saves two queries on almost every ingest request.
 */
export const QUOTA_CACHE_MS = 5_000;
const MAX_CACHED_TENANTS = 10_000;

/**
 * Monthly per-tenant quotas on model calls, tokens and money (Tenant.monthlyLlmCallQuota /
 * monthlyTokenQuota / monthlyBudgetMicros, null = unlimited), checked against this month's usage
 * roll-up; the verdict is cached for QUOTA_CACHE_MS. Used by every way a customer message comes
 * in and by the worker before a turn's first model call. The first verdict of a month at 80% of
 * the budget or more gives the budget notice: an audit entry, once a month (budgetWarnedMonth).
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
      select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true, monthlyBudgetMicros: true, budgetWarnedMonth: true },
    });
    const state = !tenant || !hasLimits(tenant) ? null : quotaState(await monthToDateUsage(this.prisma, tenantId), tenant);
    if (state && (state.budgetWarning || state.exceeded === 'cost')) await this.giveBudgetNotice(tenantId, state, tenant?.budgetWarnedMonth ?? null);
    if (this.verdicts.size >= MAX_CACHED_TENANTS) this.verdicts.clear();
    this.verdicts.set(tenantId, { state, until: now + QUOTA_CACHE_MS });
    return state;
  }

  /**
   * The month's budget notice, at most once: the conditional update lets one process of many
   * win, and only the winner writes the audit entry (a system action in the tenant's log).
   */
  private async giveBudgetNotice(tenantId: string, state: QuotaState, warned: Date | null): Promise<void> {
    const month = monthOf(new Date()).from;
    if (warned && warned.getTime() >= month.getTime()) return;
    await this.prisma.$transaction(async (tx) => {
      const won = await tx.tenant.updateMany({
        where: { id: tenantId, OR: [{ budgetWarnedMonth: null }, { budgetWarnedMonth: { lt: month } }] },
        data: { budgetWarnedMonth: month },
      });
      if (won.count !== 1) return;
      await tx.auditLog.create({
        data: {
          tenantId,
          actorType: 'system',
          action: 'budget.warning',
          entityType: 'tenant',
          entityId: tenantId,
          after: { month: month.toISOString().slice(0, 10), usedMicros: state.cost.used, budgetMicros: state.cost.quota },
        },
      });
    });
  }
}
