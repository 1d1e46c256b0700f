import { parseAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { AgentUnavailableError } from './flow-input.errors';

/** The config the worker runs for the agent: its published version, else its draft (as AgentCatalog). */
export async function agentInUse(tx: Prisma.TransactionClient, tenantId: string, agentId: string): Promise<AgentConfig> {
  const agent = await tx.agent.findFirst({ where: { id: agentId, tenantId }, select: { config: true, publishedVersion: true } });
  if (!agent) throw new AgentUnavailableError('the agent does not exist');
  let json = agent.config;
  if (agent.publishedVersion !== null) {
    const version = await tx.agentVersion.findFirst({
      where: { agentId, tenantId, version: agent.publishedVersion },
      select: { config: true },
    });
    if (!version) throw new AgentUnavailableError(`published version ${agent.publishedVersion} is missing`);
    json = version.config;
  }
  try {
    return parseAgentConfig(json);
  } catch (err) {
    throw new AgentUnavailableError((err as Error).message);
  }
}
