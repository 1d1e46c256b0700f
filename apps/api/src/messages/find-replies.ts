import type { PrismaService } from '@switchboard/db';

export interface Reply {
  id: string;
  text: string;
}

export interface AnsweredMessage {
  status: 'answered' | 'failed';
  replies: Reply[];
}

/**
 * The replies of an inbound message if its turn has committed, else null. The worker's commit
 * sets `turnId` on the inbound messages it answers and on the replies it writes, so the replies
 * are the session's outbound messages of that turn, in order.
 */
export async function findReplies(prisma: PrismaService, messageId: string): Promise<AnsweredMessage | null> {
  const inbound = await prisma.message.findUnique({
    where: { id: messageId },
    select: { status: true, turnId: true, sessionId: true },
  });
  if (!inbound || inbound.status === 'queued') return null;
  const status = inbound.status === 'failed' ? 'failed' : 'answered';
  if (!inbound.turnId) return { status, replies: [] };
  const replies = await prisma.message.findMany({
    // A reply delayed by the flow (`afterMs`) is not visible before its visibleAt.
    where: { sessionId: inbound.sessionId, turnId: inbound.turnId, direction: 'outbound', OR: [{ visibleAt: null }, { visibleAt: { lte: new Date() } }] },
    orderBy: { seq: 'asc' },
    select: { id: true, text: true },
  });
  return { status, replies };
}
