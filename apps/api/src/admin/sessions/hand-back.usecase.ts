import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { eventDeliveryRow, handedBackEvent } from '@switchboard/webhooks';
import { ConflictError } from '../../common/errors';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { sessionSelect, type SessionDto } from './session.dto';

export class SessionNotHandedOffError extends ConflictError {
  constructor(id: string, status: string) {
    super('session-not-handed-off', `Session "${id}" is ${status}; only a handed-off session can be handed back.`, { status });
  }
}

/**
 * Gives a session that `handoff_to_human` handed to a person back to the bot. Messages that
 * arrived during the hand-off were recorded by the worker as answered by a `handed-off` turn
 * with no reply; they stay that way — the person had the conversation — and the bot answers
 * from the next customer message on. The session version is left alone on purpose: a turn
 * committing a hand-off message right now still commits as such instead of replaying as a bot turn.
 * The channel's webhook gets a `session.handed_back` event.
 */
@Injectable()
export class HandBackSession {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string): Promise<SessionDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = isUuid(id) ? await tx.session.findFirst({ where: { id, ...tenantScope(user) }, select: sessionSelect }) : null;
      if (!before) throw new ResourceNotFoundError('session', id);
      if (before.status !== 'handed_off') throw new SessionNotHandedOffError(id, before.status);
      // Back with the agent: no one holds it, and a later hand-off counts unread from here on.
      const read = await tx.message.aggregate({ where: { sessionId: id, direction: 'inbound' }, _max: { seq: true } });
      const moved = await tx.session.updateMany({
        where: { id, status: 'handed_off' },
        data: { status: 'active', takenOverById: null, humanReadSeq: read._max.seq ?? 0n },
      });
      if (moved.count !== 1) throw new SessionNotHandedOffError(id, 'no longer handed off');
      const after = await tx.session.findFirstOrThrow({ where: { id }, select: sessionSelect });
      await this.notifyWebhook(tx, after);
      await recordAudit(tx, user, {
        action: 'session.hand-back',
        entityType: 'session',
        entityId: id,
        tenantId: before.tenantId,
        before: { status: before.status },
        after: { status: after.status },
      });
      return after;
    });
  }

  /** A `session.handed_back` event for the channel's webhook, if it has one, in the same transaction. */
  private async notifyWebhook(tx: Prisma.TransactionClient, session: SessionDto): Promise<void> {
    const channel = await tx.channel.findUniqueOrThrow({ where: { id: session.channelId }, select: { webhookUrl: true } });
    if (!channel.webhookUrl) return;
    const event = handedBackEvent({ deliveryId: randomUUID(), channelId: session.channelId, sessionId: session.id, session: session.externalKey, at: new Date() });
    await tx.delivery.create({ data: eventDeliveryRow(event, session.tenantId, channel.webhookUrl) });
  }
}
