import type { MessageStatus, PrismaService } from '@switchboard/db';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { asDependencyError } from '../common/errors/dependency-errors';
import type { Outcome } from '../common/group-commit';
import { MessageIdReusedError } from './messages.errors';
import type { PostMessageBody } from './messages.schemas';

export interface InsertedInboundMessage {
  messageId: string;
  sessionId: string;
  status: MessageStatus;
  createdAt: Date;
  /** True when `id` matched a message stored earlier: nothing was written this time. */
  duplicate: boolean;
}

/**
 * Stores an inbound message in one round trip: the database function sb_accept_inbound
 * (migration 20261202190000) scopes its own single-statement transaction to the key's tenant
 * (row-level security, as withTenant does), creates the session on first use and inserts the
 * message. Ingest stores `queued`; a message over quota is stored `failed` with a kind. A
 * channel message id seen before — also one that raced this call and won — returns the first
 * message with `duplicate: true`, and writes nothing; the same id with another session key or
 * text throws MessageIdReusedError (409 `idempotency-key-reused`, migration 20261203110000).
 *
 * A named prepared statement past Prisma, as the batch below: Prisma's own work per query was a
 * tenth of the API's CPU at ingest (docs/hot-path.md). Must not run inside a transaction: the
 * tenant scope would outlive the call.
 */
export async function insertInboundMessage(
  db: PreparedQueries,
  auth: ChannelScope,
  body: PostMessageBody,
  stored: { status: MessageStatus; kind?: string; at?: Date },
): Promise<InsertedInboundMessage> {
  const [row] = await db.queryPrepared<AcceptedRow>('sb_accept_inbound', acceptOne(auth, body, stored));
  return fromRow(row);
}

/** What ingest needs of the database: named prepared statements, past Prisma (PrismaService). */
export type PreparedQueries = Pick<PrismaService, 'queryPrepared'>;

function acceptOne(auth: ChannelScope, body: PostMessageBody, stored: { status: MessageStatus; kind?: string; at?: Date }) {
  return {
    text: `SELECT * FROM sb_accept_inbound($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::"MessageStatus", $8::text, $9::timestamptz)`,
    values: [auth.tenantId, auth.channelId, auth.agentId, body.session, body.text, body.id ?? null, stored.status, stored.kind ?? null, stored.at ?? new Date()],
  };
}

function acceptBatch(messages: QueuedInbound[]) {
  return {
    text: `SELECT * FROM sb_accept_inbound_batch($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])`,
    values: [
      messages.map((m) => m.auth.tenantId),
      messages.map((m) => m.auth.channelId),
      messages.map((m) => m.auth.agentId),
      messages.map((m) => m.body.session),
      messages.map((m) => m.body.text),
      messages.map((m) => m.body.id ?? null),
      messages.map((m) => m.at),
    ],
  };
}

const insertQueued = (db: PreparedQueries, m: QueuedInbound) => insertInboundMessage(db, m.auth, m.body, { status: 'queued', at: m.at });

/** One message for insertQueuedMessages, with the time it arrived. */
export interface QueuedInbound {
  auth: ChannelScope;
  body: PostMessageBody;
  at: Date;
}

/**
 * Stores many `queued` messages in one round trip and one commit: sb_accept_inbound_batch
 * (migration 20261204172300) is sb_accept_inbound row by row, in one statement. Each message
 * gets its own outcome, in the order given. The statement is all or nothing, so when it fails
 * for anything but a lost database, each message is stored again on its own: a row that cannot
 * be stored fails only its own request.
 */
export async function insertQueuedMessages(db: PreparedQueries, messages: QueuedInbound[]): Promise<Outcome<InsertedInboundMessage>[]> {
  if (messages.length === 1) return [await settled(insertQueued(db, messages[0]))];
  let rows: (AcceptedRow & { ordinal: number })[];
  try {
    rows = await db.queryPrepared<AcceptedRow & { ordinal: number }>('sb_accept_inbound_batch', acceptBatch(messages));
  } catch (err) {
    if (asDependencyError(err)) throw err;
    return Promise.all(messages.map((m) => settled(insertQueued(db, m))));
  }
  const byOrdinal = new Map(rows.map((row) => [row.ordinal, row]));
  return messages.map((_, i) => settledSync(() => fromRow(byOrdinal.get(i + 1))));
}

interface AcceptedRow {
  message_id: string;
  session_id: string;
  message_status: MessageStatus;
  created_at: Date;
  duplicate: boolean;
  same_request: boolean;
}

function fromRow(row: AcceptedRow | undefined): InsertedInboundMessage {
  if (!row) throw new Error('sb_accept_inbound returned no row');
  if (row.duplicate && !row.same_request) throw new MessageIdReusedError();
  return { messageId: row.message_id, sessionId: row.session_id, status: row.message_status, createdAt: row.created_at, duplicate: row.duplicate };
}

async function settled<R>(promise: Promise<R>): Promise<Outcome<R>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

function settledSync<R>(fn: () => R): Outcome<R> {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}
