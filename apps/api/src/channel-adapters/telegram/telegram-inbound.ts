import type { Message, Update } from '@grammyjs/types';
import { describe, type InboundVerdict, type PlatformMessage } from '../platform-message';
import { safeEqual } from '../safe-equal';

/** Telegram sends this header on every webhook call set with a secret_token (Bot API setWebhook). */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

export function verifyTelegram(headers: Record<string, string | string[] | undefined>, secrets: { webhookSecretToken: string }): boolean {
  const token = headers[TELEGRAM_SECRET_HEADER];
  return typeof token === 'string' && safeEqual(token, secrets.webhookSecretToken);
}

/**
 * A Telegram Update → the customer's message. Only `message` is answered: edits, channel
 * posts, callback queries and the rest are acknowledged and ignored, and so are messages from
 * bots (the bot's own included). The update_id is the message id, so Telegram's redelivery of
 * one update (it retries until it gets a 2xx) stores one message.
 */
export function mapTelegramUpdate(body: unknown): InboundVerdict {
  const update = body as Partial<Update> | null;
  if (!update || typeof update !== 'object' || typeof update.update_id !== 'number') return { kind: 'ignored', reason: 'not a Telegram update' };
  const m = update.message;
  if (m && (typeof m !== 'object' || typeof m.chat?.id !== 'number')) return { kind: 'ignored', reason: 'message without a chat' };
  if (!m) return { kind: 'ignored', reason: `update without a message (${Object.keys(update).filter((k) => k !== 'update_id').join(', ') || 'empty'})` };
  if (m.from?.is_bot) return { kind: 'ignored', reason: 'message from a bot' };
  const content = contentOf(m);
  if (!content) return { kind: 'ignored', reason: 'message of a kind the bot does not answer' };
  const message: PlatformMessage = { id: String(update.update_id), session: String(m.chat.id), ...content };
  return { kind: 'messages', messages: [message] };
}

function contentOf(m: Message): Pick<PlatformMessage, 'text' | 'media'> | null {
  if (typeof m.text === 'string') return { text: m.text };
  const caption = m.caption;
  if (m.photo?.length) {
    const largest = m.photo[m.photo.length - 1];
    return { text: describe('image', caption), media: { type: 'image', fileId: largest.file_id, width: largest.width, height: largest.height } };
  }
  if (m.voice) return { text: describe('voice message', caption), media: { type: 'voice', fileId: m.voice.file_id, duration: m.voice.duration, mimeType: m.voice.mime_type } };
  if (m.audio) return { text: describe('audio', caption), media: { type: 'audio', fileId: m.audio.file_id, duration: m.audio.duration } };
  if (m.video) return { text: describe('video', caption), media: { type: 'video', fileId: m.video.file_id, duration: m.video.duration } };
  if (m.video_note) return { text: '[video message]', media: { type: 'video_note', fileId: m.video_note.file_id } };
  if (m.sticker) return { text: describe('sticker', m.sticker.emoji), media: { type: 'sticker', fileId: m.sticker.file_id, emoji: m.sticker.emoji } };
  if (m.animation) return { text: describe('animation', caption), media: { type: 'animation', fileId: m.animation.file_id } };
  if (m.document) return { text: describe(`file ${m.document.file_name ?? ''}`.trim(), caption), media: { type: 'document', fileId: m.document.file_id, fileName: m.document.file_name, mimeType: m.document.mime_type } };
  if (m.location) return { text: `[location ${m.location.latitude},${m.location.longitude}]`, media: { type: 'location', latitude: m.location.latitude, longitude: m.location.longitude } };
  if (m.contact) return { text: `[contact ${m.contact.first_name} ${m.contact.phone_number}]`, media: { type: 'contact', phoneNumber: m.contact.phone_number, firstName: m.contact.first_name } };
  return null;
}
