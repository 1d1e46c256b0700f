import type { PrismaService } from '@switchboard/db';
import { turnStatusOf, type TurnStatus, type TurnTrace } from '@switchboard/queue';

export interface Reply {
  id: string;
  text: string;
}

/**
 * What became of an inbound message: `answered`; `failed` (the turn failed, `replies` holds the
 * agent's fallback message); `deferred` (the model is down for now, the turn runs again at
 * `retryAt`; `replies` holds the holding message when the agent has one).
 */
export interface AnsweredMessage {
  status: TurnStatus;
  replies: Reply[];
  retryAt?: string;
}

type StoredOutcome = TurnTrace['outcomes'][number];

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
  if (!inbound.turnId) return { status: inbound.status === 'failed' ? 'failed' : 'answered', replies: [] };
  const turn = await prisma.turn.findUnique({ where: { id: inbound.turnId }, select: { outcomes: true } });
  const rows = await prisma.message.findMany({
    // A reply delayed by the flow (`afterMs`) is not visible before its visibleAt.
    where: { sessionId: inbound.sessionId, turnId: inbound.turnId, direction: 'outbound', OR: [{ visibleAt: null }, { visibleAt: { lte: new Date() } }] },
    orderBy: { seq: 'asc' },
    select: { id: true, text: true, kind: true },
  });
  const replies = rows.map(({ id, text }) => ({ id, text }));
  const outcomes = (Array.isArray(turn?.outcomes) ? turn.outcomes : []) as StoredOutcome[];
  return { ...turnStatusOf({ inboundFailed: inbound.status === 'failed', replyKinds: rows.map((r) => r.kind), outcomes }), replies };
}
