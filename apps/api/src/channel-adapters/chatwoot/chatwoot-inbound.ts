import { describe, type InboundVerdict } from '../platform-message';
import { safeEqual } from '../safe-equal';

/** The secret Switchboard put in the webhook URL given to Chatwoot (`?secret=`): Chatwoot's agent-bot webhooks are not signed. */
export function verifyChatwoot(query: Record<string, unknown>, urlSecret: string): boolean {
  const given = query.secret;
  return typeof given === 'string' && safeEqual(given, urlSecret);
}

interface CwAttachment {
  id?: number;
  file_type?: string;
  data_url?: string;
  thumb_url?: string;
  coordinates_lat?: number;
  coordinates_long?: number;
  fallback_title?: string;
}

interface CwEvent {
  event?: string;
  id?: number | string;
  content?: string | null;
  message_type?: string;
  private?: boolean;
  status?: string;
  conversation?: { id?: number; status?: string };
  account?: { id?: number };
  attachments?: CwAttachment[];
}

const LABELS: Record<string, string> = { image: 'image', audio: 'voice message', video: 'video', file: 'file', location: 'location', fallback: 'attachment', contact: 'contact' };

/**
 * A Chatwoot agent-bot webhook → what the bot does. `message_created` of an `incoming` message
 * is the customer's (its id is the message id; the conversation's id the session key);
 * outgoing messages (the bot's own, the agents'), private notes and activity are acknowledged
 * and ignored. `conversation_status_changed` to `pending` (Chatwoot gives the conversation
 * back to its bot) or `resolved` hands the session back. The account must be the channel's.
 */
export function mapChatwootEvent(body: unknown, accountId: number): InboundVerdict {
  const e = body as CwEvent | null;
  if (!e || typeof e !== 'object' || typeof e.event !== 'string') return { kind: 'ignored', reason: 'not a Chatwoot event' };
  if (e.account?.id !== undefined && e.account.id !== accountId) return { kind: 'ignored', reason: `another account (${e.account.id})` };
  if (e.event === 'conversation_status_changed') {
    const status = e.status ?? e.conversation?.status;
    const id = e.id ?? e.conversation?.id;
    if ((status === 'pending' || status === 'resolved') && id !== undefined) return { kind: 'hand-back', session: String(id) };
    return { kind: 'ignored', reason: `conversation status ${status ?? '?'}` };
  }
  if (e.event !== 'message_created') return { kind: 'ignored', reason: `event ${e.event}` };
  if (e.message_type !== 'incoming' || e.private) return { kind: 'ignored', reason: `${e.private ? 'private ' : ''}${e.message_type ?? '?'} message` };
  if (e.id === undefined || e.conversation?.id === undefined) return { kind: 'ignored', reason: 'message without id or conversation' };
  const attachment = e.attachments?.[0];
  const content = e.content?.trim();
  if (!attachment && !content) return { kind: 'ignored', reason: 'empty message' };
  const text = attachment ? describe(LABELS[attachment.file_type ?? ''] ?? 'attachment', content) : content!;
  const media = attachment
    ? { type: attachment.file_type ?? 'attachment', url: attachment.data_url, attachmentId: attachment.id, ...(attachment.coordinates_lat !== undefined && { latitude: attachment.coordinates_lat, longitude: attachment.coordinates_long }) }
    : undefined;
  return { kind: 'messages', messages: [{ id: String(e.id), session: String(e.conversation.id), text, ...(media && { media }) }] };
}
