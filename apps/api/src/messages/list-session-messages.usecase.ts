import type { z } from 'zod';
import { Injectable } from '@nestjs/common';
import { isUuid, PrismaService, withTenant } from '@switchboard/db';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { SessionNotFoundError } from './messages.errors';
import { MAX_PAGE_SIZE, type sessionMessagesAnswer, type SessionMessagesQuery } from './messages.schemas';

/** The answer, as declared in the OpenAPI document (messages.schemas.ts). */
export type SessionMessagesView = z.infer<typeof sessionMessagesAnswer>;

/**
 * A session's conversation in arrival order, for the key's tenant only, in pages of at most
 * MAX_PAGE_SIZE messages (keyset on `seq`, so pages stay right while messages arrive). An id of another
 * tenant, an unknown id and a malformed id all answer 404 `session-not-found`, so ids cannot be
 * probed.
 */
/**
 * A read waits up to 10 s for a connection, not Prisma's 2 s: on a starved process (a machine at
 * load 20, a fuzzer spinning beside it) the 2 s ran out and a history answered 503; a slow answer
 * is better than a retry for a read.
 */
const HISTORY_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

@Injectable()
export class ListSessionMessages {
  constructor(private readonly prisma: PrismaService) {}

  /** `ref`: the session's id, or the channel's key for it (a widget visitor's `visitor:<key>`). */
  async execute(auth: ChannelScope, ref: string | { externalKey: string }, page: SessionMessagesQuery = {}): Promise<SessionMessagesView> {
    const limit = page.limit ?? MAX_PAGE_SIZE;
    if (typeof ref === 'string' && !isUuid(ref)) throw new SessionNotFoundError();
    const which = typeof ref === 'string' ? { id: ref } : { externalKey: ref.externalKey };
    // Explicit tenant filters, and row-level security under them in case one is ever forgotten.
    const found = await withTenant(this.prisma, auth.tenantId, async (tx) => {
      const session = await tx.session.findFirst({
        // The key's own channel only: a key of one channel must not read another channel's chats.
        where: { ...which, tenantId: auth.tenantId, channelId: auth.channelId },
        select: { id: true, externalKey: true, status: true, createdAt: true },
      });
      if (!session) return null;
      const messages = await tx.message.findMany({
        where: {
          sessionId: session.id,
          tenantId: auth.tenantId,
          ...(page.after !== undefined && { seq: { gt: BigInt(page.after) } }),
        },
        orderBy: { seq: 'asc' },
        take: limit + 1, // one more tells whether there is a next page
        select: {
          id: true, seq: true, direction: true, status: true, text: true, externalId: true, createdAt: true, answeredAt: true, visibleAt: true,
        },
      });
      return { session, messages };
    }, HISTORY_TRANSACTION);
    if (!found) throw new SessionNotFoundError();
    const { session } = found;
    // A reply a flow delays (`afterMs`) is not shown before its visibleAt, and neither is anything
    // after it: the page stops there, so a client paging with `next` never skips it.
    const now = Date.now();
    const hidden = found.messages.findIndex((m) => m.visibleAt !== null && m.visibleAt.getTime() > now);
    const shown = hidden >= 0 && hidden <= limit ? found.messages.slice(0, hidden) : found.messages.slice(0, limit);
    const more = hidden >= 0 ? hidden <= limit : found.messages.length > limit;
    const messages = shown.map(({ visibleAt: _visibleAt, ...m }) => m);
    const next = more ? (messages.length ? messages[messages.length - 1].seq.toString() : (page.after ?? null)) : null;
    return {
      session: { ...session, createdAt: session.createdAt.toISOString() },
      messages: messages.map((m) => ({
        ...m,
        seq: m.seq.toString(),
        createdAt: m.createdAt.toISOString(),
        answeredAt: m.answeredAt?.toISOString() ?? null,
      })),
      next,
    };
  }
}
