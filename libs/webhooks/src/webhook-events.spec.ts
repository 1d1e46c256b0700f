import { randomUUID } from 'node:crypto';
import { eventDeliveryRow } from './event-delivery';
import { handedBackEvent, handedOffEvent, replyEvent, storedEvent, testEvent, TEST_EVENT_TEXT } from './webhook-events';

const ids = { deliveryId: randomUUID(), channelId: randomUUID(), sessionId: randomUUID(), messageId: randomUUID() };
const createdAt = new Date('2026-12-03T16:00:00.000Z');

describe('webhook event payloads', () => {
  it('builds a reply with its type and version first and the fields receivers read before', () => {
    const event = replyEvent({ ...ids, session: 's1', text: 'Olá', kind: 'ai', createdAt, visibleAt: null });
    expect(event).toEqual({
      type: 'message.reply',
      version: 1,
      timestamp: '2026-12-03T16:00:00.000Z',
      deliveryId: ids.deliveryId,
      channelId: ids.channelId,
      sessionId: ids.sessionId,
      session: 's1',
      messageId: ids.messageId,
      text: 'Olá',
      createdAt: '2026-12-03T16:00:00.000Z',
    });
    expect(Object.keys(event).slice(0, 2)).toEqual(['type', 'version']);
  });

  it('marks the fallback message as message.fallback, and times a delayed reply by when it became visible', () => {
    expect(replyEvent({ ...ids, session: 's1', text: 'Desculpe', kind: 'fallback', createdAt, visibleAt: null }).type).toBe('message.fallback');
    const later = new Date(createdAt.getTime() + 5000);
    expect(replyEvent({ ...ids, session: 's1', text: 'x', kind: 'verbatim', createdAt, visibleAt: later })).toMatchObject({
      type: 'message.reply',
      timestamp: later.toISOString(),
      createdAt: createdAt.toISOString(),
    });
  });

  it('stores hand-off and hand-back events whole and reads them back in schema order from reordered JSONB', () => {
    const off = handedOffEvent({ ...ids, session: 's1', at: createdAt }, 'pediu um humano');
    const row = eventDeliveryRow(off, 'tenant', 'https://hooks.example.test/in');
    expect(row).toEqual({ id: ids.deliveryId, tenantId: 'tenant', channelId: ids.channelId, sessionId: ids.sessionId, url: 'https://hooks.example.test/in', payload: off, nextAttemptAt: createdAt });
    const reordered = Object.fromEntries(Object.entries(off).reverse());
    expect(JSON.stringify(storedEvent(reordered))).toBe(JSON.stringify(off));
    const back = handedBackEvent({ ...ids, session: 's1', at: createdAt });
    expect(storedEvent(back)).toEqual({ type: 'session.handed_back', version: 1, timestamp: createdAt.toISOString(), deliveryId: ids.deliveryId, channelId: ids.channelId, sessionId: ids.sessionId, session: 's1' });
  });

  it('refuses a stored payload that is not a known event', () => {
    expect(() => storedEvent({ type: 'message.reply' })).toThrow();
    expect(() => storedEvent({ ...handedBackEvent({ ...ids, session: 's', at: createdAt }), deliveryId: 'not-a-uuid' })).toThrow();
  });

  it('builds the test event', () => {
    expect(testEvent({ deliveryId: ids.deliveryId, channelId: ids.channelId, at: createdAt })).toEqual({
      type: 'webhook.test',
      version: 1,
      timestamp: createdAt.toISOString(),
      deliveryId: ids.deliveryId,
      channelId: ids.channelId,
      text: TEST_EVENT_TEXT,
    });
  });
});
