import { type MessageStatus, type PrismaClient } from '@switchboard/db';
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
 * Must not run inside a transaction: the tenant scope would outlive the call.
 */
export async function insertInboundMessage(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  auth: ChannelScope,
  body: PostMessageBody,
  stored: { status: MessageStatus; kind?: string; at?: Date },
): Promise<InsertedInboundMessage> {
  const [row] = await prisma.$queryRaw<AcceptedRow[]>`SELECT * FROM sb_accept_inbound(${auth.tenantId}::uuid, ${auth.channelId}::uuid,
      ${auth.agentId}::uuid, ${body.session}::text, ${body.text}::text, ${body.id ?? null}::text, ${stored.status}::"MessageStatus",
      ${stored.kind ?? null}::text, ${stored.at ?? new Date()}::timestamptz)`;
  return fromRow(row);
}

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
export async function insertQueuedMessages(prisma: Pick<PrismaClient, '$queryRaw'>, messages: QueuedInbound[]): Promise<Outcome<InsertedInboundMessage>[]> {
  if (messages.length === 1) return [await settled(insertInboundMessage(prisma, messages[0].auth, messages[0].body, { status: 'queued', at: messages[0].at }))];
  let rows: (AcceptedRow & { ordinal: number })[];
  try {
    rows = await prisma.$queryRaw<(AcceptedRow & { ordinal: number })[]>`SELECT * FROM sb_accept_inbound_batch(
        ${messages.map((m) => m.auth.tenantId)}::uuid[], ${messages.map((m) => m.auth.channelId)}::uuid[],
        ${messages.map((m) => m.auth.agentId)}::uuid[], ${messages.map((m) => m.body.session)}::text[],
        ${messages.map((m) => m.body.text)}::text[], ${messages.map((m) => m.body.id ?? null)}::text[],
        ${messages.map((m) => m.at)}::timestamptz[])`;
  } catch (err) {
    if (asDependencyError(err)) throw err;
    return Promise.all(messages.map((m) => settled(insertInboundMessage(prisma, m.auth, m.body, { status: 'queued', at: m.at }))));
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
