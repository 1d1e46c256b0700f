import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import type { NoteBody } from './inbox.schemas';
import { lockInboxSession, personName } from './inbox-session';

export type { NoteDto } from './inbox.answers';
import type { NoteDto } from './inbox.answers';

/**
 * An internal note on a session, for the tenant's people only: a SessionNote row, which no
 * stream, history endpoint or delivery reads, so it never reaches the customer. Any status.
 */
@Injectable()
export class AddSessionNote {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string, body: NoteBody): Promise<NoteDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const session = await lockInboxSession(tx, user, id);
      const note = await tx.sessionNote.create({
        data: { tenantId: session.tenantId, sessionId: id, authorId: user.id, text: body.text },
        select: { id: true, text: true, createdAt: true, author: { select: { email: true, name: true } } },
      });
      return { id: note.id, text: note.text, author: personName(note.author), createdAt: note.createdAt };
    });
  }
}
