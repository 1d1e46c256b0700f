import { fallbackMessageOf } from '@switchboard/agent-config';
import { withTenant, type PrismaClient } from '@switchboard/db';

/**
 * The agent's fallback message, as the worker sends it when it cannot answer: from the
 * published version's config, else the draft's; its own text, else the default for its language.
 */
export async function agentFallbackMessage(prisma: PrismaClient, tenantId: string, agentId: string): Promise<string> {
  return withTenant(prisma, tenantId, async (tx) => {
    const agent = await tx.agent.findFirst({ where: { id: agentId, tenantId }, select: { config: true, publishedVersion: true } });
    if (agent?.publishedVersion == null) return fallbackMessageOf(agent?.config);
    const version = await tx.agentVersion.findFirst({ where: { agentId, tenantId, version: agent.publishedVersion }, select: { config: true } });
    return fallbackMessageOf(version?.config ?? agent.config);
  });
}

/**
 * Answers a message refused over quota with the fallback message, where nothing else would
 * reach the customer (a platform channel: the platform got its 200 and waits for a reply). The
 * reply is stored as a turn's would be (outbound, `fallback`, key `fallback:<messageId>`, so a
 * platform's retry of the same message adds nothing) with a delivery to the channel's webhook
 * (for a platform channel, its adapter), which the worker's dispatcher sends.
 */
export async function replyWithFallback(
  prisma: PrismaClient,
  scope: { tenantId: string; channelId: string },
  refused: { messageId: string; sessionId: string },
  text: string,
): Promise<void> {
  const key = `fallback:${refused.messageId}`;
  await withTenant(prisma, scope.tenantId, (tx) => tx.$executeRaw`
    WITH reply AS (
      INSERT INTO "Message" ("tenantId", "sessionId", "channelId", "direction", "status", "text", "key", "kind")
      VALUES (${scope.tenantId}::uuid, ${refused.sessionId}::uuid, ${scope.channelId}::uuid, 'outbound', 'sent', ${text}, ${key}, 'fallback')
      ON CONFLICT ("sessionId", "key") DO NOTHING
      RETURNING "id")
    INSERT INTO "Delivery" ("tenantId", "channelId", "messageId", "url", "nextAttemptAt")
    SELECT ${scope.tenantId}::uuid, ${scope.channelId}::uuid, reply."id", c."webhookUrl", now()
      FROM reply, "Channel" AS c
     WHERE c."id" = ${scope.channelId}::uuid AND c."webhookUrl" IS NOT NULL`);
}
