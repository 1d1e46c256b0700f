import type { TenantTx } from '@switchboard/db';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { personName } from './inbox-session';





import type { ConversationDto, InlineTurnDto } from './inbox.answers';
export type { ConversationDto };

/** The newest messages shown; older ones stay in the Messages list. */
const MAX_MESSAGES = 300;

interface StoredOutcome {
  status?: string;
  code?: string;
}

/** A session's conversation for the inbox: its newest messages in order, each customer message with its turn, and the notes. */
export async function readConversation(tx: TenantTx, user: AdminUser, id: string): Promise<ConversationDto> {
  const session = isUuid(id)
    ? await tx.session.findFirst({
        where: { id, ...tenantScope(user) },
        select: {
          id: true,
          tenantId: true,
          externalKey: true,
          status: true,
          handedOffAt: true,
          takenOverById: true,
          humanReadSeq: true,
          takenOverBy: { select: { email: true, name: true } },
          channel: { select: { id: true, name: true, kind: true, webhookUrl: true } },
          agent: { select: { id: true, name: true } },
        },
      })
    : null;
  if (!session) throw new ResourceNotFoundError('session', id);

  const newestFirst = await tx.message.findMany({
    where: { sessionId: id },
    orderBy: { seq: 'desc' },
    take: MAX_MESSAGES + 1,
    select: { id: true, seq: true, direction: true, status: true, text: true, kind: true, turnId: true, createdAt: true },
  });
  const truncated = newestFirst.length > MAX_MESSAGES;
  const rows = newestFirst.slice(0, MAX_MESSAGES).reverse();
  const turnIds = [...new Set(rows.filter((m) => m.direction === 'inbound' && m.turnId).map((m) => m.turnId!))];
  const turns = await tx.turn.findMany({
    where: { id: { in: turnIds } },
    select: { id: true, provider: true, model: true, outcomes: true, outcomeCodes: true, totalMs: true },
  });
  const byId = new Map(turns.map((t) => [t.id, toInlineTurn(t)]));
  // A burst merged into one turn: the turn goes under the last message it answered.
  const lastOfTurn = new Map<string, string>();
  for (const m of rows) if (m.direction === 'inbound' && m.turnId) lastOfTurn.set(m.turnId, m.id);

  const notes = await tx.sessionNote.findMany({
    where: { sessionId: id },
    orderBy: { createdAt: 'asc' },
    take: MAX_MESSAGES,
    select: { id: true, text: true, createdAt: true, author: { select: { email: true, name: true } } },
  });
  const unread = rows.filter((m) => m.direction === 'inbound' && m.seq > session.humanReadSeq).length;

  return {
    session: {
      id: session.id,
      tenantId: session.tenantId,
      externalKey: session.externalKey,
      status: session.status,
      channel: { id: session.channel.id, name: session.channel.name, kind: session.channel.kind, hasWebhook: session.channel.webhookUrl !== null },
      agent: session.agent,
      handedOffAt: session.handedOffAt,
      takenOverBy: personName(session.takenOverBy),
      takenOverByMe: session.takenOverById === user.id,
      unread,
    },
    messages: rows.map((m) => ({
      id: m.id,
      seq: m.seq.toString(),
      direction: m.direction,
      status: m.status,
      text: m.text,
      kind: m.kind,
      turnId: m.turnId,
      createdAt: m.createdAt,
      turn: m.turnId && lastOfTurn.get(m.turnId) === m.id ? (byId.get(m.turnId) ?? null) : null,
    })),
    notes: notes.map((n) => ({ id: n.id, text: n.text, author: personName(n.author), createdAt: n.createdAt })),
    truncated,
  };
}

function toInlineTurn(t: { id: string; provider: string; model: string; outcomes: unknown; outcomeCodes: string[]; totalMs: number }): InlineTurnDto {
  const outcomes = (Array.isArray(t.outcomes) ? t.outcomes : []) as StoredOutcome[];
  const failure = outcomes.some((o) => o.status === 'failed')
    ? 'failed'
    : outcomes.some((o) => o.status === 'deferred' && o.code !== 'action-deferred')
      ? 'deferred'
      : null;
  return { id: t.id, provider: t.provider, model: t.model, failure, outcomeCodes: t.outcomeCodes, totalMs: t.totalMs };
}
