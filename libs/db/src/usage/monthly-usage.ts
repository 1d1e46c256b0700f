import { amountOf, COST_CURRENCY } from '../cost/call-cost';
import type { PrismaClient } from '../generated/prisma/client';

export interface MonthlyUsage {
  /** Customer turns and console runs together: what the quota counts. */
  llmCalls: number;
  /** Input + output tokens. */
  tokens: number;
  /** Of those, the console's runs (playground, live conversation tests): their own line, never customer usage. */
  console: { llmCalls: number; tokens: number };
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
 * each turn's commit plus the console runs' ConsoleUsageDaily (they call the real provider too):
 * at most a few rows per agent and day, so this stays cheap at any volume.
 */
export async function monthToDateUsage(prisma: Pick<PrismaClient, 'usageDaily' | 'consoleUsageDaily'>, tenantId: string, now = new Date()): Promise<MonthlyUsage> {
  const { from, resetsAt } = monthOf(now);
  const where = { tenantId, day: { gte: from } };
  const [customers, consoleRuns] = await Promise.all([
    prisma.usageDaily.aggregate({ where, _sum: { llmCalls: true, inputTokens: true, outputTokens: true, costMicros: true } }),
    prisma.consoleUsageDaily.aggregate({ where, _sum: { llmCalls: true, inputTokens: true, outputTokens: true } }),
  ]);
  const calls = (s: { llmCalls: bigint | null }) => Number(s.llmCalls ?? 0n);
  const tokens = (s: { inputTokens: bigint | null; outputTokens: bigint | null }) => Number((s.inputTokens ?? 0n) + (s.outputTokens ?? 0n));
  return {
    llmCalls: calls(customers._sum) + calls(consoleRuns._sum),
    tokens: tokens(customers._sum) + tokens(consoleRuns._sum),
    console: { llmCalls: calls(consoleRuns._sum), tokens: tokens(consoleRuns._sum) },
    costMicros: Number(customers._sum.costMicros ?? 0n),
    from,
    resetsAt,
  };
}

/**
 * What a month is limited by: the tenant's model calls, tokens and money (micros, the budget), and
 * one agent's own money budget (`agentCost`, optional, beside the tenant's).
 */
export type QuotaKind = 'llmCalls' | 'tokens' | 'cost' | 'agentCost';
/** The kinds a tenant's QuotaState reports. */
export type TenantQuotaKind = Exclude<QuotaKind, 'agentCost'>;

/** The share of the money budget at which the tenant is warned (console notice, audit entry, metric). */
export const BUDGET_WARNING_RATIO = 0.8;

export interface QuotaState {
  llmCalls: { used: number; quota: number | null };
  tokens: { used: number; quota: number | null };
  /** Of `used`, what the console's runs (playground, live conversation tests) spent. */
  console: { llmCalls: number; tokens: number };
  /** Micros spent and the monthly budget in micros (null: none). */
  cost: { used: number; quota: number | null };
  resetsAt: Date;
  /** Which quota is spent, if any. */
  exceeded: TenantQuotaKind | null;
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
  const exceeded: TenantQuotaKind | null =
    llm !== null && usage.llmCalls >= llm ? 'llmCalls' : tok !== null && usage.tokens >= tok ? 'tokens' : budget !== null && usage.costMicros >= budget ? 'cost' : null;
  const budgetWarning = budget !== null && usage.costMicros < budget && usage.costMicros >= budget * BUDGET_WARNING_RATIO;
  return {
    llmCalls: { used: usage.llmCalls, quota: llm },
    tokens: { used: usage.tokens, quota: tok },
    console: usage.console,
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

/** One agent's month against its own money budget (micros). */
export interface AgentBudgetState {
  agentId: string;
  used: number;
  quota: number;
  /** At BUDGET_WARNING_RATIO of the budget or more, and not yet spent. */
  warning: boolean;
  exceeded: boolean;
}

export function agentBudgetState(agentId: string, usedMicros: number, budgetMicros: bigint): AgentBudgetState {
  const quota = Number(budgetMicros);
  const exceeded = usedMicros >= quota;
  return { agentId, used: usedMicros, quota, exceeded, warning: !exceeded && usedMicros >= quota * BUDGET_WARNING_RATIO };
}

/**
 * Whether a turn of the agent may run: the tenant's quotas first (calls, tokens, budget), then the
 * agent's own budget. `limit` is the spent limit (micros for money), for the refusal's message.
 */
export interface QuotaVerdict {
  exceeded: QuotaKind | null;
  limit: number | null;
  resetsAt: Date;
  tenant: QuotaState | null;
  agent: AgentBudgetState | null;
}

export function combineVerdict(tenant: QuotaState | null, agent: AgentBudgetState | null, now = new Date()): QuotaVerdict {
  const resetsAt = tenant?.resetsAt ?? monthOf(now).resetsAt;
  if (tenant?.exceeded) return { exceeded: tenant.exceeded, limit: tenant[tenant.exceeded].quota, resetsAt, tenant, agent };
  if (agent?.exceeded) return { exceeded: 'agentCost', limit: agent.quota, resetsAt, tenant, agent };
  return { exceeded: null, limit: null, resetsAt, tenant, agent };
}

/** Who spent a limit, for messages: the agent for its own budget, else the tenant. */
export const quotaOwner = (which: QuotaKind): 'agent' | 'tenant' => (which === 'agentCost' ? 'agent' : 'tenant');

/** A spent limit in words: "monthly quota of 5 model calls", "monthly budget of 10.000000 USD". */
export function describeQuota(which: QuotaKind, quota: number): string {
  if (which === 'cost' || which === 'agentCost') return `monthly budget of ${amountOf(BigInt(quota))} ${COST_CURRENCY}`;
  return `monthly quota of ${quota} ${which === 'llmCalls' ? 'model calls' : 'tokens'}`;
}
