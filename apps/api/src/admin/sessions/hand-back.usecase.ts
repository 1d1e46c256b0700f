import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
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
 */
@Injectable()
export class HandBackSession {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string): Promise<SessionDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = isUuid(id) ? await tx.session.findFirst({ where: { id, ...tenantScope(user) }, select: sessionSelect }) : null;
      if (!before) throw new ResourceNotFoundError('session', id);
      if (before.status !== 'handed_off') throw new SessionNotHandedOffError(id, before.status);
      const moved = await tx.session.updateMany({ where: { id, status: 'handed_off' }, data: { status: 'active' } });
      if (moved.count !== 1) throw new SessionNotHandedOffError(id, 'no longer handed off');
      const after = await tx.session.findFirstOrThrow({ where: { id }, select: sessionSelect });
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
}
