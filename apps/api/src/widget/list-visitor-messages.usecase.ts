import type { z } from 'zod';
import { Injectable } from '@nestjs/common';
import type { SessionStatus } from '@switchboard/db';
import { ListSessionMessages, type SessionMessagesView } from '../messages/list-session-messages.usecase';
import { SessionNotFoundError } from '../messages/messages.errors';
import type { SessionMessagesQuery } from '../messages/messages.schemas';
import type { visitorHistoryAnswer } from './widget.schemas';
import { clientIdOf } from './visitor-session';
import type { VisitorContext } from './visitor.guard';

/** The answer, as declared in the OpenAPI document (widget.schemas.ts). */
export type VisitorHistory = z.infer<typeof visitorHistoryAnswer>;

/** The visitor's conversation (their own session only), paged as the channel API pages it. */
@Injectable()
export class ListVisitorMessages {
  constructor(private readonly list: ListSessionMessages) {}

  async execute(v: VisitorContext, page: SessionMessagesQuery): Promise<VisitorHistory> {
    let view: SessionMessagesView;
    try {
      // One query of the visitor's own session by its key: another visitor's is another key.
      view = await this.list.execute({ tenantId: v.tenantId, channelId: v.channelId, agentId: v.channel.agentId }, { externalKey: v.sessionKey }, page);
    } catch (err) {
      if (err instanceof SessionNotFoundError) return { session: null, messages: [], next: null }; // nothing said yet
      throw err;
    }
    return {
      session: { status: view.session.status as SessionStatus },
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
