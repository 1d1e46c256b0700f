import { amountOf, COST_CURRENCY } from '../cost/call-cost';
import type { PrismaClient } from '../generated/prisma/client';

export interface MonthlyUsage {
  llmCalls: number;
  /** Input + output tokens. */
  tokens: number;
  /** What the month's turns cost, in micros (docs/cost.md); a double holds it exactly below 9 billion USD. */
  costMicros: number;
  /** First instant of the month (UTC). */
  from: Date;
  /** When the month ends and the quota resets (UTC). */
  resetsAt: Date;
}

/** The calendar month (UTC) that contains `now`. */
export function monthOf(now: Date): { from: Date; resetsAt: Date } {
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/**
 * The tenant's model usage so far this month, from the UsageDaily roll-up the worker keeps in
 * each turn's commit: at most one row per agent and day, so this stays cheap at any volume.
 */
export async function monthToDateUsage(prisma: Pick<PrismaClient, 'usageDaily'>, tenantId: string, now = new Date()): Promise<MonthlyUsage> {
  const { from, resetsAt } = monthOf(now);
  const sums = await prisma.usageDaily.aggregate({
    where: { tenantId, day: { gte: from } },
    _sum: { llmCalls: true, inputTokens: true, outputTokens: true, costMicros: true },
  });
  return {
    llmCalls: Number(sums._sum.llmCalls ?? 0n),
    tokens: Number((sums._sum.inputTokens ?? 0n) + (sums._sum.outputTokens ?? 0n)),
    costMicros: Number(sums._sum.costMicros ?? 0n),
    from,
    resetsAt,
  };
}

/** What a tenant's month is limited by: model calls, tokens, and money (micros, the budget). */
export type QuotaKind = 'llmCalls' | 'tokens' | 'cost';

/** The share of the money budget at which the tenant is warned (console notice, audit entry, metric). */
export const BUDGET_WARNING_RATIO = 0.8;

export interface QuotaState {
  llmCalls: { used: number; quota: number | null };
  tokens: { used: number; quota: number | null };
  /** Micros spent and the monthly budget in micros (null: none). */
  cost: { used: number; quota: number | null };
  resetsAt: Date;
  /** Which quota is spent, if any. */
  exceeded: QuotaKind | null;
  /** The money budget is at BUDGET_WARNING_RATIO or more (and not yet spent). */
  budgetWarning: boolean;
}

export interface TenantLimits {
  monthlyLlmCallQuota: bigint | null;
  monthlyTokenQuota: bigint | null;
  monthlyBudgetMicros?: bigint | null;
}

export function quotaState(usage: MonthlyUsage, quotas: TenantLimits): QuotaState {
  const num = (q: bigint | null | undefined) => (q === null || q === undefined ? null : Number(q));
  const llm = num(quotas.monthlyLlmCallQuota);
  const tok = num(quotas.monthlyTokenQuota);
  const budget = num(quotas.monthlyBudgetMicros);
  const exceeded: QuotaKind | null =
    llm !== null && usage.llmCalls >= llm ? 'llmCalls' : tok !== null && usage.tokens >= tok ? 'tokens' : budget !== null && usage.costMicros >= budget ? 'cost' : null;
  const budgetWarning = budget !== null && usage.costMicros < budget && usage.costMicros >= budget * BUDGET_WARNING_RATIO;
  return {
    llmCalls: { used: usage.llmCalls, quota: llm },
    tokens: { used: usage.tokens, quota: tok },
    cost: { used: usage.costMicros, quota: budget },
    resetsAt: usage.resetsAt,
    exceeded,
    budgetWarning,
  };
}

/** Whether the tenant has any limit at all (none: no quota state to compute). */
export function hasLimits(q: TenantLimits): boolean {
  return q.monthlyLlmCallQuota !== null || q.monthlyTokenQuota !== null || (q.monthlyBudgetMicros ?? null) !== null;
}

/** A spent limit in words: "monthly quota of 5 model calls", "monthly budget of 10.000000 USD". */
export function describeQuota(which: QuotaKind, quota: number): string {
  if (which === 'cost') return `monthly budget of ${amountOf(BigInt(quota))} ${COST_CURRENCY}`;
  return `monthly quota of ${quota} ${which === 'llmCalls' ? 'model calls' : 'tokens'}`;
}
