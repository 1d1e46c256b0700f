import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { eventDeliveryRow, handedOffEvent } from '@switchboard/webhooks';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { SessionTakenByOtherError } from './inbox.errors';
import { inboxSessionSelect, lockInboxSession, personName } from './inbox-session';

/** Said in the channel's `session.handed_off` event when a person, not the agent, took the session. */
export const TAKEOVER_REASON = 'An operator took the conversation over in the console.';

export type { TakeOverResult } from './inbox.answers';
import type { TakeOverResult } from './inbox.answers';

/**
 * An operator takes a session over: it becomes `handed_off` (the worker records the customer's
 * messages and stays silent, as after the `handoff_to_human` tool) and is theirs. A session the
 * agent handed off is simply claimed. Taking over one's own session again changes nothing; one
 * another operator holds is refused (409 session-taken-by-other) until it is handed back.
 * Audited as `session.take-over`; the channel's webhook gets `session.handed_off` when the
 * session was the agent's until now.
 */
@Injectable()
export class TakeOverSession {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string): Promise<TakeOverResult> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await lockInboxSession(tx, user, id);
      if (before.takenOverById && before.takenOverById !== user.id) throw new SessionTakenByOtherError(id, personName(before.takenOverBy) ?? 'another operator');
      const fromAgent = before.status !== 'handed_off';
      // Taken from the agent: the operator is reading it now, so nothing before is unread.
      const read = fromAgent ? await tx.message.aggregate({ where: { sessionId: id, direction: 'inbound' }, _max: { seq: true } }) : null;
      const after = await tx.session.update({
        where: { id },
        data: { status: 'handed_off', takenOverById: user.id, ...(fromAgent && { handedOffAt: new Date(), humanReadSeq: read?._max.seq ?? 0n }) },
        select: { ...inboxSessionSelect, channel: { select: { webhookUrl: true } } },
      });
      if (fromAgent && after.channel.webhookUrl) {
        const event = handedOffEvent(
          { deliveryId: randomUUID(), channelId: after.channelId, sessionId: id, session: after.externalKey, at: new Date() },
          TAKEOVER_REASON,
        );
        await tx.delivery.create({ data: eventDeliveryRow(event, after.tenantId, after.channel.webhookUrl) });
      }
      if (before.takenOverById !== user.id) {
        await recordAudit(tx, user, {
          action: 'session.take-over',
          entityType: 'session',
          entityId: id,
          tenantId: before.tenantId,
          before: { status: before.status, takenOverById: before.takenOverById },
          after: { status: after.status, takenOverById: after.takenOverById },
        });
      }
      return { id, status: 'handed_off', takenOverBy: personName(after.takenOverBy), handedOffAt: after.handedOffAt };
    });
  }
}
