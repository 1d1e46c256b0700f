import { createHmac } from 'node:crypto';
import { describe, type InboundVerdict, type PlatformMessage } from '../platform-message';
import { safeEqual } from '../safe-equal';

/** Slack refuses requests older than this; so do we (a replayed request is older). */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;

/**
 * Slack's v0 signature: `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`
 * under the app's signing secret, with the timestamp within 5 minutes of now. Why not, or true.
 */
export function verifySlack(headers: Record<string, string | string[] | undefined>, rawBody: string, signingSecret: string, now: Date): true | string {
  const ts = headers['x-slack-request-timestamp'];
  const signature = headers['x-slack-signature'];
  if (typeof ts !== 'string' || !/^\d{1,12}$/.test(ts) || typeof signature !== 'string') return 'The X-Slack-Request-Timestamp or X-Slack-Signature header is missing.';
  if (Math.abs(now.getTime() / 1000 - Number(ts)) > SLACK_MAX_AGE_SECONDS) return 'X-Slack-Request-Timestamp is more than 5 minutes from now (a replay, or a clock off).';
  const expected = 'v0=' + createHmac('sha256', signingSecret).update(`v0:${ts}:${rawBody}`, 'utf8').digest('hex');
  return safeEqual(signature, expected) || 'X-Slack-Signature is not the v0 HMAC-SHA256 of the request under the signing secret.';
}

interface SlackFile {
  id?: string;
  name?: string;
  mimetype?: string;
  filetype?: string;
  subtype?: string;
  url_private?: string;
}

interface SlackEvent {
  type?: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  files?: SlackFile[];
}

interface SlackEnvelope {
  type?: string;
  challenge?: string;
  event_id?: string;
  event?: SlackEvent;
  authorizations?: { user_id?: string; is_bot?: boolean }[];
}

/**
 * An Events API request → what the bot does: `url_verification` answers its challenge;
 * `event_callback` with a person's `message` in a direct message (`channel_type: im`) or an
 * `app_mention` in a channel is the customer's message (event_id as the message id, the
 * conversation's channel id as the session key). The bot's own messages (bot_id, or the bot
 * user), edits, deletions and other subtypes, and every other event are acknowledged and ignored.
 */
export function mapSlackRequest(body: unknown): InboundVerdict {
  const e = body as SlackEnvelope | null;
  if (!e || typeof e !== 'object') return { kind: 'ignored', reason: 'not a Slack request' };
  if (e.type === 'url_verification' && typeof e.challenge === 'string') return { kind: 'answer', body: { challenge: e.challenge } };
  if (e.type !== 'event_callback' || !e.event || typeof e.event_id !== 'string') return { kind: 'ignored', reason: `request type ${e.type ?? '?'}` };
  const ev = e.event;
  const botUser = e.authorizations?.find((a) => a.is_bot)?.user_id;
  if (ev.bot_id || (botUser && ev.user === botUser)) return { kind: 'ignored', reason: "the bot's own message" };
  if (ev.subtype && ev.subtype !== 'file_share') return { kind: 'ignored', reason: `message subtype ${ev.subtype}` };
  const direct = ev.type === 'message' && ev.channel_type === 'im';
  if (!direct && ev.type !== 'app_mention') return { kind: 'ignored', reason: `event ${ev.type ?? '?'}${ev.channel_type ? ` in ${ev.channel_type}` : ''}` };
  if (!ev.channel || !ev.user) return { kind: 'ignored', reason: 'event without channel or user' };
  // A mention starts with "<@BOT>": the agent gets what was said to it.
  const text = (ev.text ?? '').replace(/<@[A-Z0-9]+>\s*/g, '').trim();
  const file = ev.files?.[0];
  const message: PlatformMessage = file
    ? { id: e.event_id, session: ev.channel, text: describe(fileLabel(file), text), media: { type: 'file', fileId: file.id, name: file.name, mimeType: file.mimetype, url: file.url_private } }
    : { id: e.event_id, session: ev.channel, text };
  if (!message.text) return { kind: 'ignored', reason: 'empty message' };
  return { kind: 'messages', messages: [message] };
}

function fileLabel(f: SlackFile): string {
  if (f.subtype === 'slack_audio' || f.mimetype?.startsWith('audio/')) return 'voice message';
  if (f.mimetype?.startsWith('image/')) return 'image';
  if (f.mimetype?.startsWith('video/')) return 'video';
  return `file ${f.name ?? ''}`.trim();
}
