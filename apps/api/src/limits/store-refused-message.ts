import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { insertInboundMessage, type PreparedQueries } from '../messages/insert-inbound-message';
import type { PostMessageBody } from '../messages/messages.schemas';

/** The `kind` of an inbound message stored but refused because the tenant's quota is spent. */
export const QUOTA_REFUSED_KIND = 'quota-exceeded';

/**
 * Keeps a message that arrives over quota, so nothing accepted from a customer disappears: it is
 * stored `failed` (never queued, so no worker or sweeper runs a turn for it) with kind
 * `quota-exceeded`. Same session upsert as ingest; a repeated channel message id returns the
 * message stored first.
 */
export async function storeRefusedMessage(
  db: PreparedQueries,
  auth: ChannelScope,
  body: PostMessageBody,
): Promise<{ messageId: string; sessionId: string }> {
  const m = await insertInboundMessage(db, auth, body, { status: 'failed', kind: QUOTA_REFUSED_KIND });
  return { messageId: m.messageId, sessionId: m.sessionId };
}
