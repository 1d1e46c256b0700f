import type { TenantTx } from '@switchboard/db';
import { turnStatusOf, type SessionEvent, type TurnTrace } from '@switchboard/queue';
import type { StreamCursor } from './stream-cursor';

export type CommittedEvent = Extract<SessionEvent, { type: 'committed' }>;

/** Rows read per query; a longer backlog is read in several. */
const PAGE = 500;

/**
 * Where a session stands now: the stream of a client that did not say where it was starts here.
 * A reply still hidden by the flow (`visibleAt` ahead) and everything after it count as not sent,
 * as the history endpoint does not show them either.
 */
export async function currentCursor(tx: TenantTx, sessionId: string, now: Date): Promise<StreamCursor> {
  const [row] = await tx.$queryRaw<{ reply_max: bigint | null; hidden_min: bigint | null; inbound_max: bigint | null }[]>`
    SELECT MAX("seq") FILTER (WHERE "direction" = 'outbound') AS reply_max,
           MIN("seq") FILTER (WHERE "direction" = 'outbound' AND "visibleAt" > ${now}) AS hidden_min,
           MAX("seq") FILTER (WHERE "direction" = 'inbound' AND "status" <> 'queued' AND "turnId" IS NOT NULL) AS inbound_max
      FROM "Message" WHERE "sessionId" = ${sessionId}::uuid`;
  const reply = row?.hidden_min != null ? row.hidden_min - 1n : (row?.reply_max ?? 0n);
  return { reply, inbound: row?.inbound_max ?? 0n };
}

/**
 * What a session's turns committed after `cursor`, from Postgres (the source of truth, so a
 * client that missed live events misses nothing): one `committed` event per turn in commit
 * order, with the customer messages it answered, its visible replies and its status (answered,
 * failed, deferred with retryAt), each with the cursor to resume after it. Replies stop at the first one the flow still hides, like the history.
 */
export async function settledSince(
  tx: TenantTx,
  sessionId: string,
  from: StreamCursor,
  now: Date,
): Promise<{ event: CommittedEvent; cursor: StreamCursor }[]> {
  const out: { event: CommittedEvent; cursor: StreamCursor }[] = [];
  let cursor = from;
  for (;;) {
    const rows = await tx.message.findMany({
      where: {
        sessionId,
        OR: [
          { direction: 'outbound', seq: { gt: cursor.reply } },
          { direction: 'inbound', seq: { gt: cursor.inbound }, status: { not: 'queued' }, turnId: { not: null } },
        ],
      },
      orderBy: { seq: 'asc' },
      take: PAGE,
      select: { id: true, seq: true, direction: true, status: true, kind: true, text: true, turnId: true, visibleAt: true },
    });
    const hidden = rows.find((r) => r.direction === 'outbound' && r.visibleAt !== null && r.visibleAt > now);
    const shown = hidden ? rows.filter((r) => r.direction === 'inbound' || r.seq < hidden.seq) : rows;
    if (shown.length === 0) return out;

    const turnIds = [...new Set(shown.map((r) => r.turnId).filter((t): t is string => t !== null))];
    const turns = await tx.turn.findMany({ where: { id: { in: turnIds } }, select: { id: true, createdAt: true, outcomes: true } });
    const committedAt = new Map(turns.map((t) => [t.id, t.createdAt.getTime()]));
    const outcomesOf = new Map(turns.map((t) => [t.id, (Array.isArray(t.outcomes) ? t.outcomes : []) as TurnTrace['outcomes']]));
    const groups = new Map<string, typeof shown>();
    for (const r of shown) {
      const key = r.turnId ?? `message:${r.id}`; // a reply without a turn stands alone
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const ordered = [...groups.values()].sort(
      (a, b) => (committedAt.get(a[0].turnId ?? '') ?? 0) - (committedAt.get(b[0].turnId ?? '') ?? 0) || Number(a[0].seq - b[0].seq),
    );
    for (const group of ordered) {
      const inbound = group.filter((r) => r.direction === 'inbound');
      const replies = group.filter((r) => r.direction === 'outbound');
      cursor = {
        reply: replies.reduce((max, r) => (r.seq > max ? r.seq : max), cursor.reply),
        inbound: inbound.reduce((max, r) => (r.seq > max ? r.seq : max), cursor.inbound),
      };
      // The status a live event carries, read back from the rows, so a resumed stream says it too.
      const how = turnStatusOf({
        inboundFailed: inbound.some((r) => r.status === 'failed'),
        replyKinds: replies.map((r) => r.kind),
        outcomes: outcomesOf.get(group[0].turnId ?? '') ?? [],
      });
      out.push({
        event: { type: 'committed', turnId: group[0].turnId ?? '', answered: inbound.map((r) => r.id), replies: replies.map((r) => ({ id: r.id, text: r.text })), ...how },
        cursor,
      });
    }
    // A full page may have more behind it; a hidden reply holds back the rest until it shows.
    if (rows.length < PAGE || hidden) return out;
  }
}
