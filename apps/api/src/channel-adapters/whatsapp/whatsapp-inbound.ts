import { createHmac } from 'node:crypto';
import { describe, type InboundVerdict, type PlatformMessage } from '../platform-message';
import { safeEqual } from '../safe-equal';

/** Meta signs every webhook POST: `sha256=` + hex HMAC-SHA256 of the raw body under the app secret. */
export const WHATSAPP_SIGNATURE_HEADER = 'x-hub-signature-256';

export function verifyWhatsApp(headers: Record<string, string | string[] | undefined>, rawBody: string, appSecret: string): boolean {
  const given = headers[WHATSAPP_SIGNATURE_HEADER];
  if (typeof given !== 'string' || !given.startsWith('sha256=')) return false;
  const expected = 'sha256=' + createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex');
  return safeEqual(given.toLowerCase(), expected);
}

/**
 * The subscription handshake (GET with hub.mode=subscribe, hub.verify_token, hub.challenge):
 * the challenge echoed when the token is the channel's; null when it is not.
 */
export function whatsAppChallenge(query: Record<string, unknown>, verifyToken: string): string | null {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  return safeEqual(token, verifyToken) ? challenge : null;
}

interface WaMedia {
  id: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
}

interface WaMessage {
  from: string;
  id: string;
  timestamp?: string;
  type: string;
  text?: { body: string };
  image?: WaMedia;
  audio?: WaMedia;
  video?: WaMedia;
  document?: WaMedia;
  sticker?: WaMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string }[] }[];
  button?: { text: string; payload?: string };
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string; description?: string } };
}

interface WaNotification {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: { metadata?: { phone_number_id?: string }; messages?: WaMessage[]; statuses?: unknown[] } }[] }[];
}

/**
 * A WhatsApp Cloud API notification → the customers' messages in it (one notification may
 * carry several). Delivery receipts (`statuses`), reactions and messages of types the bot does
 * not know are acknowledged and not stored. The WhatsApp message id (wamid) is the message id.
 * Only messages to the channel's own phone number id are taken.
 */
export function mapWhatsAppNotification(body: unknown, phoneNumberId: string): InboundVerdict {
  const n = body as WaNotification | null;
  if (!n || typeof n !== 'object' || n.object !== 'whatsapp_business_account' || !Array.isArray(n.entry)) {
    return { kind: 'ignored', reason: 'not a whatsapp_business_account notification' };
  }
  const messages: PlatformMessage[] = [];
  const skipped: string[] = [];
  for (const entry of n.entry) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (change?.field !== 'messages' || !value || typeof value !== 'object') {
        skipped.push(`field ${change?.field ?? '?'}`);
        continue;
      }
      if (value.metadata?.phone_number_id !== phoneNumberId) {
        skipped.push(`another phone number (${value.metadata?.phone_number_id ?? '?'})`);
        continue;
      }
      if (Array.isArray(value.statuses) && value.statuses.length) skipped.push('statuses');
      for (const m of Array.isArray(value.messages) ? value.messages : []) {
        const content = m && typeof m === 'object' ? contentOf(m) : null;
        if (content && typeof m.id === 'string' && typeof m.from === 'string') messages.push({ id: m.id, session: m.from, ...content });
        else skipped.push(`message type ${m?.type ?? '?'}`);
      }
    }
  }
  return messages.length > 0 ? { kind: 'messages', messages } : { kind: 'ignored', reason: skipped.join(', ') || 'no messages' };
}

function media(type: string, m: WaMedia): Record<string, unknown> {
  return { type, mediaId: m.id, mimeType: m.mime_type, sha256: m.sha256, ...(m.filename && { fileName: m.filename }) };
}

function contentOf(m: WaMessage): Pick<PlatformMessage, 'text' | 'media'> | null {
  switch (m.type) {
    case 'text':
      return m.text?.body ? { text: m.text.body } : null;
    case 'image':
      return m.image ? { text: describe('image', m.image.caption), media: media('image', m.image) } : null;
    case 'audio':
      return m.audio ? { text: m.audio.voice ? '[voice message]' : '[audio]', media: media(m.audio.voice ? 'voice' : 'audio', m.audio) } : null;
    case 'video':
      return m.video ? { text: describe('video', m.video.caption), media: media('video', m.video) } : null;
    case 'document':
      return m.document ? { text: describe(`file ${m.document.filename ?? ''}`.trim(), m.document.caption), media: media('document', m.document) } : null;
    case 'sticker':
      return m.sticker ? { text: '[sticker]', media: media('sticker', m.sticker) } : null;
    case 'location': {
      const l = m.location;
      if (!l) return null;
      const where = [l.name, l.address].filter(Boolean).join(', ');
      return { text: `[location ${l.latitude},${l.longitude}${where ? ` ${where}` : ''}]`, media: { type: 'location', ...l } };
    }
    case 'contacts': {
      const c = m.contacts?.[0];
      return c ? { text: `[contact ${c.name?.formatted_name ?? ''} ${c.phones?.[0]?.phone ?? ''}]`.replace(/\s+\]/, ']'), media: { type: 'contacts', contacts: m.contacts } } : null;
    }
    case 'button':
      return m.button ? { text: m.button.text } : null;
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return reply ? { text: reply.title, media: { type: 'interactive', replyId: reply.id } } : null;
    }
    default:
      // reaction, unsupported, system, order...: acknowledged, not answered
      return null;
  }
}
