import { createHmac } from 'node:crypto';
import { mapChatwootEvent } from './chatwoot/chatwoot-inbound';
import { mapSlackRequest, verifySlack } from './slack/slack-inbound';
import { mapTelegramUpdate } from './telegram/telegram-inbound';
import { mapWhatsAppNotification, verifyWhatsApp, whatsAppChallenge } from './whatsapp/whatsapp-inbound';

// Platforms send shapes we do not know (new update kinds, new message types, broken bodies):
// every mapper acknowledges them as `ignored` with a reason instead of throwing.

const ODD_BODIES: unknown[] = [
  null, 0, 'text', [], [1, 2], {}, { update_id: 'x' }, { update_id: 1, message: { text: 'no chat' } }, { update_id: 1, message: 'x' },
  { object: 'page', entry: 'x' }, { object: 'whatsapp_business_account', entry: [null, { changes: [null, { field: 'messages', value: { metadata: { phone_number_id: '1' }, messages: [null, 7], statuses: 'x' } }] }] },
  { event: 5 }, { event: 'message_created', message_type: 'incoming', conversation: null }, { type: 'event_callback', event: null }, { type: 'event_callback', event_id: 'Ev1', event: { type: 'message', channel_type: 'im', files: 'x' } },
];

describe('inbound mappers', () => {
  it.each(ODD_BODIES.map((b) => [JSON.stringify(b), b]))('ignore %s without throwing', (_label, body) => {
    expect(mapTelegramUpdate(body).kind).toBe('ignored');
    expect(mapSlackRequest(body).kind).toBe('ignored');
    expect(mapChatwootEvent(body, 1).kind).toBe('ignored');
    expect(mapWhatsAppNotification(body, '1').kind).toBe('ignored');
  });

  it('Telegram: a message kind it does not know is ignored, a location is described', () => {
    const base = { update_id: 1, message: { message_id: 1, date: 1, chat: { id: 7, type: 'private' }, from: { id: 7, is_bot: false, first_name: 'A' } } };
    expect(mapTelegramUpdate({ ...base, message: { ...base.message, dice: { emoji: '🎲', value: 3 } } })).toEqual({ kind: 'ignored', reason: 'message of a kind the bot does not answer' });
    expect(mapTelegramUpdate({ ...base, message: { ...base.message, location: { latitude: -25.43, longitude: -49.27 } } })).toEqual({
      kind: 'messages',
      messages: [{ id: '1', session: '7', text: '[location -25.43,-49.27]', media: { type: 'location', latitude: -25.43, longitude: -49.27 } }],
    });
  });

  it('WhatsApp: the signature is over the raw bytes; the handshake needs mode, token and challenge', () => {
    const raw = '{"object":"whatsapp_business_account","entry":[]}';
    const sig = 'sha256=' + createHmac('sha256', 'secret').update(raw).digest('hex');
    expect(verifyWhatsApp({ 'x-hub-signature-256': sig }, raw, 'secret')).toBe(true);
    expect(verifyWhatsApp({ 'x-hub-signature-256': sig }, raw + ' ', 'secret')).toBe(false);
    expect(verifyWhatsApp({ 'x-hub-signature-256': ['a', 'b'] }, raw, 'secret')).toBe(false);
    expect(whatsAppChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 't', 'hub.challenge': '42' }, 't')).toBe('42');
    expect(whatsAppChallenge({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 't', 'hub.challenge': '42' }, 't')).toBeNull();
    expect(whatsAppChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': ['t'], 'hub.challenge': '42' }, 't')).toBeNull();
  });

  it('WhatsApp: messages to another phone number id are not taken', () => {
    const n = { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '999' }, messages: [{ from: '1', id: 'wamid.1', type: 'text', text: { body: 'oi' } }] } }] }] };
    expect(mapWhatsAppNotification(n, '1')).toEqual({ kind: 'ignored', reason: 'another phone number (999)' });
  });

  it('Slack: the timestamp window is 5 minutes either way', () => {
    const now = new Date('2026-12-03T15:00:00Z');
    const at = (s: number) => {
      const ts = String(Math.floor(now.getTime() / 1000) + s);
      return { 'x-slack-request-timestamp': ts, 'x-slack-signature': 'v0=' + createHmac('sha256', 'k').update(`v0:${ts}:{}`).digest('hex') };
    };
    expect(verifySlack(at(-299), '{}', 'k', now)).toBe(true);
    expect(verifySlack(at(299), '{}', 'k', now)).toBe(true);
    expect(verifySlack(at(-301), '{}', 'k', now)).toMatch(/5 minutes/);
    expect(verifySlack(at(301), '{}', 'k', now)).toMatch(/5 minutes/);
  });

  it('Chatwoot: events of another account are ignored', () => {
    expect(mapChatwootEvent({ event: 'message_created', id: 1, message_type: 'incoming', content: 'oi', account: { id: 2 }, conversation: { id: 3 } }, 1)).toEqual({ kind: 'ignored', reason: 'another account (2)' });
  });
});
