import { Prisma, type ChannelKind, type TenantTx } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { tenantScope } from '../tenant-scope';

export type { InboxItemDto } from './inbox.answers';
import type { InboxItemDto } from './inbox.answers';

/** The list is for a desk's open conversations, not an archive. */
const MAX_ITEMS = 200;

interface Row {
  id: string;
  tenantId: string;
  externalKey: string;
  channelId: string;
  channelName: string;
  channelKind: ChannelKind;
  agentId: string;
  agentName: string;
  handedOffAt: Date | null;
  takenOverById: string | null;
  takenOverByName: string | null;
  unread: bigint;
  lastText: string | null;
  lastDirection: 'inbound' | 'outbound' | null;
  lastAt: Date | null;
}

/**
 * Every handed-off session of the caller's tenant (a platform admin: of the tenant they picked,
 * or all), newest activity first, with its unread count and last message: one statement, one
 * index probe per session for each count (Message_sessionId_seq_idx).
 */
export async function listInbox(tx: TenantTx, user: AdminUser): Promise<InboxItemDto[]> {
  const tenantId = tenantScope(user).tenantId;
  const rows = await tx.$queryRaw<Row[]>`
    SELECT s.id, s."tenantId", s."externalKey", c.id AS "channelId", c.name AS "channelName", c.kind::text AS "channelKind",
           a.id AS "agentId", a.name AS "agentName", s."handedOffAt", s."takenOverById",
           COALESCE(NULLIF(u.name, ''), u.email) AS "takenOverByName",
           (SELECT count(*) FROM "Message" m WHERE m."sessionId" = s.id AND m.direction = 'inbound' AND m.seq > s."humanReadSeq") AS unread,
           last.text AS "lastText", last.direction::text AS "lastDirection", last."createdAt" AS "lastAt"
      FROM "Session" s
      JOIN "Channel" c ON c.id = s."channelId"
      JOIN "Agent" a ON a.id = s."agentId"
      LEFT JOIN "User" u ON u.id = s."takenOverById"
      LEFT JOIN LATERAL (
        SELECT m.text, m.direction, m."createdAt" FROM "Message" m WHERE m."sessionId" = s.id ORDER BY m.seq DESC LIMIT 1
      ) last ON true
     WHERE s.status = 'handed_off' ${tenantId ? Prisma.sql`AND s."tenantId" = ${tenantId}::uuid` : Prisma.empty}
     ORDER BY COALESCE(last."createdAt", s."handedOffAt", s."updatedAt") DESC
     LIMIT ${MAX_ITEMS}`;
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenantId,
    externalKey: r.externalKey,
    channel: { id: r.channelId, name: r.channelName, kind: r.channelKind },
    agent: { id: r.agentId, name: r.agentName },
    handedOffAt: r.handedOffAt,
    takenOverBy: r.takenOverByName,
    takenOverByMe: r.takenOverById === user.id,
    unread: Number(r.unread),
    lastMessage: r.lastText !== null && r.lastDirection && r.lastAt ? { text: r.lastText, direction: r.lastDirection, at: r.lastAt } : null,
  }));
}
