import type { Prisma } from '@switchboard/db';
import type { AgentRunTarget } from '@switchboard/queue';
import { z } from 'zod';
import { ResourceNotFoundError } from '../admin-errors';
import { knownActions, knownToolIds } from '../agents/agent-references';
import { FlowConfigurationRejectedError } from '../agents/flow-configuration-rejected.error';
import { validateForPublish } from '../agents/validate-for-publish';
import { FlowConfigurationError } from '@falai/agent';

/**
 * What a console run runs: `"draft"` (the saved draft), a version number, or `"unsaved"` with the
 * editor's config (checked exactly as publishing checks a draft, so a broken form gets the same
 * 422 with its JSON path instead of a failed run).
 */
export const runTargetSchema = z.union([z.literal('draft'), z.literal('unsaved'), z.number().int().min(1)]);
export type RunTargetRef = z.infer<typeof runTargetSchema>;

export function targetLabel(ref: RunTargetRef): string {
  return typeof ref === 'number' ? `v${ref}` : ref;
}

export async function resolveRunTarget(
  tx: Prisma.TransactionClient,
  agent: { id: string; tenantId: string },
  ref: RunTargetRef,
  unsavedConfig: unknown,
): Promise<AgentRunTarget> {
  if (ref === 'draft') return { kind: 'draft' };
  if (typeof ref === 'number') {
    const row = await tx.agentVersion.findFirst({ where: { agentId: agent.id, version: ref }, select: { id: true } });
    if (!row) throw new ResourceNotFoundError('agent version', String(ref));
    return { kind: 'version', version: ref };
  }
  try {
    const check = validateForPublish(unsavedConfig, await knownToolIds(tx, agent.tenantId), await knownActions(tx));
    return { kind: 'config', config: check.config };
  } catch (err) {
    if (err instanceof FlowConfigurationError) throw new FlowConfigurationRejectedError(err);
    throw err;
  }
}
