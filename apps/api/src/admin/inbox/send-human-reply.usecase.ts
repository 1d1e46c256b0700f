import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, type TenantTx } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { SessionNotWithPersonError, SessionTakenByOtherError } from './inbox.errors';
import type { ReplyBody } from './inbox.schemas';
import { lockInboxSession, personName } from './inbox-session';
import { InboxSessionEvents } from './session-event-publisher';

/** Message.kind of a reply a person wrote in the console (the agent's are the engine's kinds or `fallback`). */
export const HUMAN_REPLY_KIND = 'human';

export type { HumanReplyDto } from './inbox.answers';
import type { HumanReplyDto } from './inbox.answers';

/**
 * An operator's reply to the customer, sent the way the agent's replies go: an outbound message
 * row (turn-less, so the widget's and API's streams show it as a reply of its own) and, when the
 * channel has a webhook or a platform adapter, its Delivery row in the same transaction. The
 * dispatcher sends a session's replies in `seq` order, so the reply cannot overtake an earlier
 * agent reply still being retried. The same `clientKey` twice stores and delivers one reply.
 * Only in a session a person has (409 session-not-taken-over otherwise); replying claims a
 * session the agent handed off and no one took yet, and marks the conversation read.
 */
@Injectable()
export class SendHumanReply {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: InboxSessionEvents,
  ) {}

  async execute(user: AdminUser, id: string, body: ReplyBody): Promise<HumanReplyDto> {
    const { reply, fresh } = await adminTransaction(this.prisma, user, (tx) => this.store(tx, user, id, body));
    if (fresh) {
      await this.events.publish(id, { type: 'committed', turnId: '', answered: [], replies: [{ id: reply.id, text: reply.text }] });
    }
    return reply;
  }

  private async store(tx: TenantTx, user: AdminUser, id: string, body: ReplyBody): Promise<{ reply: HumanReplyDto; fresh: boolean }> {
    const session = await lockInboxSession(tx, user, id);
    if (session.status !== 'handed_off') throw new SessionNotWithPersonError(id);
    if (session.takenOverById && session.takenOverById !== user.id) throw new SessionTakenByOtherError(id, personName(session.takenOverBy) ?? 'another operator');
    const key = `human:${body.clientKey ?? randomUUID()}`;
    const channel = await tx.channel.findUniqueOrThrow({ where: { id: session.channelId }, select: { webhookUrl: true } });

    const earlier = await tx.message.findUnique({ where: { sessionId_key: { sessionId: id, key } }, select: replySelect });
    if (earlier) return { reply: toDto(earlier, channel.webhookUrl), fresh: false };

    const message = await tx.message.create({
      data: { tenantId: session.tenantId, sessionId: id, channelId: session.channelId, direction: 'outbound', status: 'sent', text: body.text, key, kind: HUMAN_REPLY_KIND },
      select: replySelect,
    });
    if (channel.webhookUrl) {
      await tx.delivery.create({ data: { tenantId: session.tenantId, channelId: session.channelId, messageId: message.id, url: channel.webhookUrl, nextAttemptAt: new Date() } });
    }
    const lastInbound = await tx.message.aggregate({ where: { sessionId: id, direction: 'inbound' }, _max: { seq: true } });
    await tx.session.update({
      where: { id },
      data: { takenOverById: user.id, lastMessageAt: message.createdAt, humanReadSeq: lastInbound._max.seq ?? 0n },
    });
    await recordAudit(tx, user, {
      action: 'session.reply',
      entityType: 'session',
      entityId: id,
      tenantId: session.tenantId,
      after: { messageId: message.id, chars: message.text.length },
    });
    return { reply: toDto(message, channel.webhookUrl), fresh: true };
  }
}

const replySelect = { id: true, seq: true, text: true, kind: true, createdAt: true } as const;

function toDto(m: { id: string; seq: bigint; text: string; kind: string | null; createdAt: Date }, webhookUrl: string | null): HumanReplyDto {
  return { id: m.id, seq: m.seq.toString(), text: m.text, kind: m.kind ?? HUMAN_REPLY_KIND, createdAt: m.createdAt, delivered: webhookUrl ? 'queued' : 'stream-only' };
}
