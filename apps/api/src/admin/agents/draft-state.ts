import type { Prisma } from '@switchboard/db';
import { diffConfigs, normalizedConfig } from './config-diff';

/**
 * Adds `unpublishedChanges` to agent rows: true when the draft differs from the live version in
 * anything a turn would see (normalised as the diff compares them), or when it was never published.
 */
export async function withDraftState<T extends { id: string; name: string; config: unknown; publishedVersion: number | null }>(
  tx: Prisma.TransactionClient,
  agents: T[],
): Promise<(T & { unpublishedChanges: boolean })[]> {
  const live = agents.filter((a) => a.publishedVersion !== null);
  const versions = live.length
    ? await tx.agentVersion.findMany({
        where: { OR: live.map((a) => ({ agentId: a.id, version: a.publishedVersion! })) },
        select: { agentId: true, config: true },
      })
    : [];
  const byAgent = new Map(versions.map((v) => [v.agentId, v.config]));
  return agents.map((a) => {
    const published = byAgent.get(a.id);
    const unpublishedChanges =
      published === undefined || diffConfigs(normalizedConfig(published, a.name), normalizedConfig(a.config, a.name)).length > 0;
    return { ...a, unpublishedChanges };
  });
}
