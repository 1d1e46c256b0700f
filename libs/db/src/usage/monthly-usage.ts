import type { PrismaClient } from '../generated/prisma/client';

export interface MonthlyUsage {
  /** Customer turns and console runs together: what the quota counts. */
  llmCalls: number;
  /** Input + output tokens. */
  tokens: number;
  /** Of those, the console's runs (playground, live conversation tests): their own line, never customer usage. */
  console: { llmCalls: number; tokens: number };
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
 * each turn's commit plus the console runs' ConsoleUsageDaily (they call the real provider too):
 * at most a few rows per agent and day, so this stays cheap at any volume.
 */
export async function monthToDateUsage(prisma: Pick<PrismaClient, 'usageDaily' | 'consoleUsageDaily'>, tenantId: string, now = new Date()): Promise<MonthlyUsage> {
  const { from, resetsAt } = monthOf(now);
  const where = { tenantId, day: { gte: from } };
  const _sum = { llmCalls: true, inputTokens: true, outputTokens: true } as const;
  const [customers, consoleRuns] = await Promise.all([prisma.usageDaily.aggregate({ where, _sum }), prisma.consoleUsageDaily.aggregate({ where, _sum })]);
  const calls = (s: typeof customers._sum) => Number(s.llmCalls ?? 0n);
  const tokens = (s: typeof customers._sum) => Number((s.inputTokens ?? 0n) + (s.outputTokens ?? 0n));
  return {
    llmCalls: calls(customers._sum) + calls(consoleRuns._sum),
    tokens: tokens(customers._sum) + tokens(consoleRuns._sum),
    console: { llmCalls: calls(consoleRuns._sum), tokens: tokens(consoleRuns._sum) },
    from,
    resetsAt,
  };
}

export interface QuotaState {
  llmCalls: { used: number; quota: number | null };
  tokens: { used: number; quota: number | null };
  /** Of `used`, what the console's runs (playground, live conversation tests) spent. */
  console: { llmCalls: number; tokens: number };
  resetsAt: Date;
  /** Which quota is spent, if any. */
  exceeded: 'llmCalls' | 'tokens' | null;
}

export function quotaState(usage: MonthlyUsage, quotas: { monthlyLlmCallQuota: bigint | null; monthlyTokenQuota: bigint | null }): QuotaState {
  const llm = quotas.monthlyLlmCallQuota === null ? null : Number(quotas.monthlyLlmCallQuota);
  const tok = quotas.monthlyTokenQuota === null ? null : Number(quotas.monthlyTokenQuota);
  const exceeded = llm !== null && usage.llmCalls >= llm ? 'llmCalls' : tok !== null && usage.tokens >= tok ? 'tokens' : null;
  return { llmCalls: { used: usage.llmCalls, quota: llm }, tokens: { used: usage.tokens, quota: tok }, console: usage.console, resetsAt: usage.resetsAt, exceeded };
}
