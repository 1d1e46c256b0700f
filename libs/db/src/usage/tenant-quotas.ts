import { Injectable } from '@nestjs/common';
import { ExpiringCache } from '../expiring-cache';
import { PrismaService } from '../prisma.service';
import {
  agentBudgetState,
  combineVerdict,
  hasLimits,
  monthOf,
  monthToDateUsage,
  quotaState,
  type AgentBudgetState,
  type QuotaState,
  type QuotaVerdict,
} from './monthly-usage';

/**
 * How long one instance trusts a tenant's quota verdict. Usage only grows by whole turns and the
 * roll-up lags the turn anyway, so a few seconds of staleness costs at most a few messages past
 * the quota, and saves two queries on almost every ingest request.
 */
export const QUOTA_CACHE_MS = 5_000;

/** Which monthly limits exist, as read by the caller: the tenant has a quota or budget; the agent its own budget. */
export interface QuotaLimits {
  tenant: boolean;
  agent: boolean;
}

/**
 * Monthly quotas on model calls, tokens and money: the tenant's (Tenant.monthlyLlmCallQuota /
 * monthlyTokenQuota / monthlyBudgetMicros) and, optionally, one agent's own money budget
 * (Agent.monthlyBudgetMicros); null = unlimited. Checked against this month's usage roll-up, each
 * verdict cached for QUOTA_CACHE_MS. Used by every way a customer message comes in and by the
 * worker before a turn's first model call. The first verdict of a month at 80% of a budget or more
 * gives that budget's notice: an audit entry, once a month (budgetWarnedMonth on the tenant or agent).
 */
@Injectable()
export class TenantQuotas {
  private readonly tenants = new ExpiringCache<QuotaState | null>(QUOTA_CACHE_MS);
  private readonly agents = new ExpiringCache<AgentBudgetState | null>(QUOTA_CACHE_MS);

  constructor(private readonly prisma: PrismaService) {}

  /**
   * Whether a turn of the tenant (and of `agentId`, when given) may run this month. `limits`, when
   * the caller read them with its own rows (the worker's claim-and-load), says which budgets exist:
   * one that does not costs no query at all, and most tenants and agents have none.
   */
  async verdict(tenantId: string, agentId?: string, limits?: QuotaLimits): Promise<QuotaVerdict> {
    const [tenant, agent] = await Promise.all([
      limits?.tenant === false ? null : this.tenants.get(tenantId, () => this.tenantState(tenantId)),
      // Keyed by tenant and agent: a verdict is only ever read for the tenant it was computed for.
      agentId && limits?.agent !== false ? this.agents.get(`${tenantId}:${agentId}`, () => this.agentState(tenantId, agentId)) : null,
    ]);
    return combineVerdict(tenant, agent);
  }

  private async tenantState(tenantId: string): Promise<QuotaState | null> {
    const tenant = await this.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true, monthlyBudgetMicros: true, budgetWarnedMonth: true },
    });
    const state = !tenant || !hasLimits(tenant) ? null : quotaState(await monthToDateUsage(this.prisma, tenantId), tenant);
    if (state && (state.budgetWarning || state.exceeded === 'cost')) {
      await this.giveBudgetNotice({ tenantId, entityType: 'tenant', entityId: tenantId }, state.cost.used, state.cost.quota!, tenant?.budgetWarnedMonth ?? null);
    }
    return state;
  }

  /** The agent's own budget this month, from the same roll-up (its rows only); null without one. */
  private async agentState(tenantId: string, agentId: string): Promise<AgentBudgetState | null> {
    const agent = await this.prisma.agent.findFirst({ where: { id: agentId, tenantId }, select: { monthlyBudgetMicros: true, budgetWarnedMonth: true } });
    if (!agent || agent.monthlyBudgetMicros === null) return null;
    const spent = await this.prisma.usageDaily.aggregate({ where: { tenantId, agentId, day: { gte: monthOf(new Date()).from } }, _sum: { costMicros: true } });
    const state = agentBudgetState(agentId, Number(spent._sum.costMicros ?? 0n), agent.monthlyBudgetMicros);
    if (state.warning || state.exceeded) await this.giveBudgetNotice({ tenantId, entityType: 'agent', entityId: agentId }, state.used, state.quota, agent.budgetWarnedMonth);
    return state;
  }

  /**
   * The month's budget notice for a tenant or an agent, at most once: the conditional update lets
   * one process of many win, and only the winner writes the audit entry (a system action in the
   * tenant's log).
   */
  private async giveBudgetNotice(
    who: { tenantId: string; entityType: 'tenant' | 'agent'; entityId: string },
    usedMicros: number,
    budgetMicros: number,
    warned: Date | null,
  ): Promise<void> {
    const month = monthOf(new Date()).from;
    if (warned && warned.getTime() >= month.getTime()) return;
    const notYetWarned = { OR: [{ budgetWarnedMonth: null }, { budgetWarnedMonth: { lt: month } }] };
    await this.prisma.$transaction(async (tx) => {
      const won =
        who.entityType === 'tenant'
          ? await tx.tenant.updateMany({ where: { id: who.entityId, ...notYetWarned }, data: { budgetWarnedMonth: month } })
          : await tx.agent.updateMany({ where: { id: who.entityId, tenantId: who.tenantId, ...notYetWarned }, data: { budgetWarnedMonth: month } });
      if (won.count !== 1) return;
      await tx.auditLog.create({
        data: {
          tenantId: who.tenantId,
          actorType: 'system',
          action: 'budget.warning',
          entityType: who.entityType,
          entityId: who.entityId,
          after: { month: month.toISOString().slice(0, 10), usedMicros, budgetMicros },
        },
      });
    });
  }
}
