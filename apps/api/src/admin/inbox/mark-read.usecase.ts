import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { lockInboxSession } from './inbox-session';

/**
 * Moves the session's read mark to its newest customer message: the inbox's unread count is the
 * number of customer messages after the mark. One mark per session (the desk's, not each
 * person's): whoever reads it for the team clears it. Never moves back.
 */
@Injectable()
export class MarkSessionRead {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string): Promise<{ id: string; unread: 0 }> {
    return adminTransaction(this.prisma, user, async (tx) => {
      await lockInboxSession(tx, user, id);
      const newest = await tx.message.aggregate({ where: { sessionId: id, direction: 'inbound' }, _max: { seq: true } });
      const seq = newest._max.seq ?? 0n;
      await tx.session.updateMany({ where: { id, humanReadSeq: { lt: seq } }, data: { humanReadSeq: seq } });
      return { id, unread: 0 };
    });
  }
}
