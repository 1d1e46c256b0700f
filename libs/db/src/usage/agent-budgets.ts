import type { PrismaClient } from '../generated/prisma/client';
import { agentBudgetState, monthOf, type AgentBudgetState } from './monthly-usage';

/** An agent with its own budget, and how much of it this month has spent. */
export type NamedAgentBudget = AgentBudgetState & { name: string };

/**
 * Every agent of the tenant that has its own monthly budget, with this month's spend from the
 * UsageDaily roll-up (one grouped read, a few rows per agent and day): the console's notices.
 */
export async function monthToDateAgentBudgets(
  prisma: Pick<PrismaClient, 'agent' | 'usageDaily'>,
  tenantId: string,
  now = new Date(),
): Promise<NamedAgentBudget[]> {
  const agents = await prisma.agent.findMany({
    where: { tenantId, monthlyBudgetMicros: { not: null } },
    select: { id: true, name: true, monthlyBudgetMicros: true },
    orderBy: { name: 'asc' },
  });
  if (agents.length === 0) return [];
  const spent = await prisma.usageDaily.groupBy({
    by: ['agentId'],
    where: { tenantId, agentId: { in: agents.map((a) => a.id) }, day: { gte: monthOf(now).from } },
    _sum: { costMicros: true },
  });
  const used = new Map(spent.map((s) => [s.agentId, Number(s._sum.costMicros ?? 0n)]));
  return agents.map((a) => ({ ...agentBudgetState(a.id, used.get(a.id) ?? 0, a.monthlyBudgetMicros!), name: a.name }));
}
