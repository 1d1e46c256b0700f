import { type MessageStatus, type PrismaClient } from '@switchboard/db';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
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
  stored: { status: MessageStatus; kind?: string },
): Promise<InsertedInboundMessage> {
  const [row] = await prisma.$queryRaw<
    { message_id: string; session_id: string; message_status: MessageStatus; created_at: Date; duplicate: boolean; same_request: boolean }[]
  >`SELECT * FROM sb_accept_inbound(${auth.tenantId}::uuid, ${auth.channelId}::uuid, ${auth.agentId}::uuid, ${body.session}::text,
      ${body.text}::text, ${body.id ?? null}::text, ${stored.status}::"MessageStatus", ${stored.kind ?? null}::text, ${new Date()}::timestamptz)`;
  if (row.duplicate && !row.same_request) throw new MessageIdReusedError();
  return { messageId: row.message_id, sessionId: row.session_id, status: row.message_status, createdAt: row.created_at, duplicate: row.duplicate };
}
