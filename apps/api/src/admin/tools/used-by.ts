import type { Prisma } from '@switchboard/db';

export interface AgentRef {
  id: string;
  name: string;
  tenantId: string;
}

/**
 * Agents whose draft allow-list names each tool id, limited to `tenantScope` (a code tool is
 * shared, but a tenant sees only its own agents). One query for the whole page of tools.
 */
export async function agentsUsingTools(
  db: Prisma.TransactionClient,
  scope: { tenantId?: string },
  toolIds: readonly string[],
): Promise<Map<string, AgentRef[]>> {
  const result = new Map<string, AgentRef[]>(toolIds.map((id) => [id, []]));
  if (toolIds.length === 0) return result;
  const agents = await db.agent.findMany({
    where: { ...scope, OR: toolIds.map((id) => ({ config: { path: ['tools'], array_contains: [id] } })) },
    select: { id: true, name: true, tenantId: true, config: true },
  });
  for (const agent of agents) {
    const tools = (agent.config as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) continue;
    for (const id of tools) result.get(id)?.push({ id: agent.id, name: agent.name, tenantId: agent.tenantId });
  }
  return result;
}
