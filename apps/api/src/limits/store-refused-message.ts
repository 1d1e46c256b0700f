import { Prisma, withTenant, type PrismaClient } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import type { PostMessageBody } from '../messages/messages.schemas';

/** The `kind` of an inbound message stored but refused because the tenant's quota is spent. */
export const QUOTA_REFUSED_KIND = 'quota-exceeded';

/**
 * Keeps a message that arrives over quota, so nothing accepted from a customer disappears: it is
 * stored `failed` (never queued, so no worker or sweeper runs a turn for it) with kind
 * `quota-exceeded`. Same session upsert as ingest; a repeated channel message id returns the
 * message stored first.
 */
export async function storeRefusedMessage(
  prisma: PrismaClient,
  auth: ChannelAuthContext,
  body: PostMessageBody,
): Promise<{ messageId: string; sessionId: string }> {
  try {
    return await withTenant(prisma, auth.tenantId, async (tx) => {
      const now = new Date();
      const [session] = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "lastMessageAt", "updatedAt")
        VALUES (${auth.tenantId}::uuid, ${auth.channelId}::uuid, ${auth.agentId}::uuid, ${body.session}, ${now}, ${now})
        ON CONFLICT ("channelId", "externalKey")
        DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt", "updatedAt" = EXCLUDED."updatedAt"
        RETURNING "id"`;
      const message = await tx.message.create({
        data: {
          tenantId: auth.tenantId,
          channelId: auth.channelId,
          sessionId: session.id,
          direction: 'inbound',
          status: 'failed',
          kind: QUOTA_REFUSED_KIND,
          text: body.text,
          externalId: body.id ?? null,
          createdAt: now,
        },
        select: { id: true },
      });
      return { messageId: message.id, sessionId: session.id };
    });
  } catch (err) {
    if (body.id !== undefined && err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      const earlier = await prisma.message.findUniqueOrThrow({
        where: { channelId_externalId: { channelId: auth.channelId, externalId: body.id } },
        select: { id: true, sessionId: true },
      });
      return { messageId: earlier.id, sessionId: earlier.sessionId };
    }
    throw err;
  }
}
