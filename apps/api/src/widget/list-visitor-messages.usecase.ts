import { Injectable } from '@nestjs/common';
import { PrismaService, type SessionStatus } from '@switchboard/db';
import { ListSessionMessages } from '../messages/list-session-messages.usecase';
import type { SessionMessagesQuery } from '../messages/messages.schemas';
import { clientIdOf, findVisitorSession } from './visitor-session';
import type { VisitorContext } from './visitor.guard';

export interface VisitorMessage {
  id: string;
  seq: string;
  direction: 'inbound' | 'outbound';
  status: string;
  text: string;
  /** The widget's id of the visitor's own messages; null for replies. */
  clientId: string | null;
  createdAt: string;
}

export interface VisitorHistory {
  session: { status: SessionStatus } | null;
  messages: VisitorMessage[];
  next: string | null;
}

/** The visitor's conversation (their own session only), paged as the channel API pages it. */
@Injectable()
export class ListVisitorMessages {
  constructor(
    private readonly prisma: PrismaService,
    private readonly list: ListSessionMessages,
  ) {}

  async execute(v: VisitorContext, page: SessionMessagesQuery): Promise<VisitorHistory> {
    const session = await findVisitorSession(this.prisma, v);
    if (!session) return { session: null, messages: [], next: null };
    const view = await this.list.execute({ tenantId: v.tenantId, channelId: v.channelId, agentId: v.channel.agentId }, session.id, page);
    return {
      session: { status: session.status },
      messages: view.messages.map((m) => ({
        id: m.id,
        seq: m.seq,
        direction: m.direction,
        status: m.status,
        text: m.text,
        clientId: m.direction === 'inbound' ? clientIdOf(v.visitor, m.externalId) : null,
        createdAt: m.createdAt,
      })),
      next: view.next,
    };
  }
}
