import type { PrismaClient } from '../generated/prisma/client';

export interface MonthlyUsage {
  llmCalls: number;
  /** Input + output tokens. */
  tokens: number;
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
    _sum: { llmCalls: true, inputTokens: true, outputTokens: true },
  });
  return {
    llmCalls: Number(sums._sum.llmCalls ?? 0n),
    tokens: Number((sums._sum.inputTokens ?? 0n) + (sums._sum.outputTokens ?? 0n)),
    from,
    resetsAt,
  };
}

export interface QuotaState {
  llmCalls: { used: number; quota: number | null };
  tokens: { used: number; quota: number | null };
  resetsAt: Date;
  /** Which quota is spent, if any. */
  exceeded: 'llmCalls' | 'tokens' | null;
}

export function quotaState(usage: MonthlyUsage, quotas: { monthlyLlmCallQuota: bigint | null; monthlyTokenQuota: bigint | null }): QuotaState {
  const llm = quotas.monthlyLlmCallQuota === null ? null : Number(quotas.monthlyLlmCallQuota);
  const tok = quotas.monthlyTokenQuota === null ? null : Number(quotas.monthlyTokenQuota);
  const exceeded = llm !== null && usage.llmCalls >= llm ? 'llmCalls' : tok !== null && usage.tokens >= tok ? 'tokens' : null;
  return { llmCalls: { used: usage.llmCalls, quota: llm }, tokens: { used: usage.tokens, quota: tok }, resetsAt: usage.resetsAt, exceeded };
}
