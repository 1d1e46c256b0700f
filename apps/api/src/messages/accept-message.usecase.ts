import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, withTenant, type MessageStatus } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import type { PostMessageBody } from './messages.schemas';

export interface AcceptedMessage {
  messageId: string;
  sessionId: string;
  status: MessageStatus;
  /** True when `id` matched a message stored earlier: nothing was written this time. */
  duplicate: boolean;
  acceptedAt: Date;
}

/**
 * Stores an inbound message: in one transaction the session is created on first use and the
 * message is inserted as `queued`. A channel message id seen before returns the first message
 * (also when two copies race: the loser hits the unique index and reads the winner's row).
 */
@Injectable()
export class AcceptMessage {
  constructor(private readonly prisma: PrismaService) {}

  async execute(auth: ChannelAuthContext, body: PostMessageBody): Promise<AcceptedMessage> {
    if (body.id !== undefined) {
      const earlier = await this.findByExternalId(auth.channelId, body.id);
      if (earlier) return earlier;
    }
    try {
      return await this.insert(auth, body);
    } catch (err) {
      if (body.id !== undefined && isUniqueViolation(err)) {
        const winner = await this.findByExternalId(auth.channelId, body.id);
        if (winner) return winner;
      }
      throw err;
    }
  }

  private insert(auth: ChannelAuthContext, body: PostMessageBody): Promise<AcceptedMessage> {
    // Row-level security scopes the transaction to the key's tenant (defence in depth).
    return withTenant(this.prisma, auth.tenantId, async (tx) => {
      const now = new Date();
      // ON CONFLICT makes "create on first use" safe when two messages of a new session race.
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
          status: 'queued',
          text: body.text,
          externalId: body.id ?? null,
          createdAt: now,
        },
        select: { id: true, status: true, createdAt: true },
      });
      return { messageId: message.id, sessionId: session.id, status: message.status, duplicate: false, acceptedAt: message.createdAt };
    });
  }

  private async findByExternalId(channelId: string, externalId: string): Promise<AcceptedMessage | null> {
    const m = await this.prisma.message.findUnique({
      where: { channelId_externalId: { channelId, externalId } },
      select: { id: true, sessionId: true, status: true, createdAt: true },
    });
    return m && { messageId: m.id, sessionId: m.sessionId, status: m.status, duplicate: true, acceptedAt: m.createdAt };
  }
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
