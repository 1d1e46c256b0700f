import type { PrismaService } from '@switchboard/db';
import type { TurnStatus } from '@switchboard/queue';

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

interface StoredOutcome {
  status?: string;
  code?: string;
  until?: string;
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
  if (!inbound.turnId) return { status: inbound.status === 'failed' ? 'failed' : 'answered', replies: [] };
  const turn = await prisma.turn.findUnique({ where: { id: inbound.turnId }, select: { outcomes: true } });
  const rows = await prisma.message.findMany({
    // A reply delayed by the flow (`afterMs`) is not visible before its visibleAt.
    where: { sessionId: inbound.sessionId, turnId: inbound.turnId, direction: 'outbound', OR: [{ visibleAt: null }, { visibleAt: { lte: new Date() } }] },
    orderBy: { seq: 'asc' },
    select: { id: true, text: true, kind: true },
  });
  const replies = rows.map(({ id, text }) => ({ id, text }));
  if (inbound.status === 'failed' || rows.some((r) => r.kind === 'fallback')) return { status: 'failed', replies };
  if (!rows.some((r) => r.kind !== 'holding')) {
    const outcomes = (Array.isArray(turn?.outcomes) ? turn.outcomes : []) as StoredOutcome[];
    const deferred = outcomes.find((o) => o.status === 'deferred' && o.code?.startsWith('provider-') && o.until);
    if (deferred) return { status: 'deferred', replies, retryAt: deferred.until };
  }
  return { status: 'answered', replies };
}
