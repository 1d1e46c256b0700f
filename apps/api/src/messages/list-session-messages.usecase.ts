import { Injectable } from '@nestjs/common';
import { isUuid, PrismaService, withTenant } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { SessionNotFoundError } from './messages.errors';

export interface SessionMessagesView {
  session: { id: string; externalKey: string; status: string; createdAt: string };
  messages: {
    id: string;
    seq: string;
    direction: 'inbound' | 'outbound';
    status: string;
    text: string;
    externalId: string | null;
    createdAt: string;
    answeredAt: string | null;
  }[];
}

/**
 * A session's conversation in arrival order, for the key's tenant only. An id of another
 * tenant, an unknown id and a malformed id all answer 404 `session-not-found`, so ids cannot be
 * probed.
 */
@Injectable()
export class ListSessionMessages {
  constructor(private readonly prisma: PrismaService) {}

  async execute(auth: ChannelAuthContext, sessionId: string): Promise<SessionMessagesView> {
    if (!isUuid(sessionId)) throw new SessionNotFoundError();
    // Explicit tenant filters, and row-level security under them in case one is ever forgotten.
    const found = await withTenant(this.prisma, auth.tenantId, async (tx) => {
      const session = await tx.session.findFirst({
        where: { id: sessionId, tenantId: auth.tenantId },
        select: { id: true, externalKey: true, status: true, createdAt: true },
      });
      if (!session) return null;
      const messages = await tx.message.findMany({
        where: { sessionId: session.id, tenantId: auth.tenantId },
        orderBy: { seq: 'asc' },
        select: {
          id: true, seq: true, direction: true, status: true, text: true, externalId: true, createdAt: true, answeredAt: true,
        },
      });
      return { session, messages };
    });
    if (!found) throw new SessionNotFoundError();
    const { session, messages } = found;
    return {
      session: { ...session, createdAt: session.createdAt.toISOString() },
      messages: messages.map((m) => ({
        ...m,
        seq: m.seq.toString(),
        createdAt: m.createdAt.toISOString(),
        answeredAt: m.answeredAt?.toISOString() ?? null,
      })),
    };
  }
}
