import type { AgentConfig } from '@switchboard/agent-config';
import type { StructuredSchema } from '@falai/agent';
import type { Prisma } from '@switchboard/db';
import { UnknownReferenceError } from '../admin-errors';
import { isUuid } from '../list-query/filters';

/**
 * A provider credential named by the config must be one of the agent's tenant: an id of
 * another tenant reads as unknown. `basePath` locates `provider` in the request body.
 */
export async function assertCredentialOfTenant(
  tx: Prisma.TransactionClient,
  tenantId: string,
  config: AgentConfig | undefined,
  basePath: (string | number)[],
): Promise<void> {
  const id = config?.provider.credentialId;
  if (id === undefined) return;
  const found = isUuid(id) && (await tx.providerCredential.findFirst({ where: { id, tenantId }, select: { id: true } }));
  if (!found) {
    throw new UnknownReferenceError(
      'unknown-credential',
      'The provider credential this agent names does not exist in this tenant (it may have been deleted). Pick another one under Provider credentials, or remove it.',
      [...basePath, 'provider', 'credentialId'],
    );
  }
}

/** Tool ids an agent of `tenantId` may allow: every registered code tool and the tenant's HTTP tools. */
export async function knownToolIds(tx: Prisma.TransactionClient, tenantId: string): Promise<Set<string>> {
  const [code, http] = await Promise.all([
    tx.registeredTool.findMany({ select: { toolId: true } }),
    tx.toolDefinition.findMany({ where: { tenantId }, select: { toolId: true } }),
  ]);
  return new Set([...code, ...http].map((t) => t.toolId));
}

/** The worker's registered actions (with their params) and conditions, as synced at its start-up. */
export async function knownActions(
  tx: Prisma.TransactionClient,
): Promise<{ actions: Record<string, StructuredSchema | undefined>; conditions: string[] }> {
  const rows = await tx.registeredAction.findMany({ select: { kind: true, name: true, params: true } });
  const actions: Record<string, StructuredSchema | undefined> = {};
  const conditions: string[] = [];
  for (const r of rows) {
    if (r.kind === 'action') actions[r.name] = (r.params ?? undefined) as StructuredSchema | undefined;
    else conditions.push(r.name);
  }
  return { actions, conditions };
}
