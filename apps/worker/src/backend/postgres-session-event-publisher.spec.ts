import { MAX_NOTIFY_BYTES, notifyPayloads } from './postgres-session-event-publisher';

describe('notifyPayloads', () => {
  it('sends a committed event whole when it fits', () => {
    const event = { type: 'committed' as const, turnId: 't', answered: ['m'], replies: [{ id: 'r1', text: 'oi' }] };
    expect(notifyPayloads(event).map((p) => JSON.parse(p))).toEqual([event]);
  });

  it('drops the texts of a committed event too big for NOTIFY but keeps which replies it announced', () => {
    const replies = [
      { id: 'r1', text: 'x'.repeat(MAX_NOTIFY_BYTES) },
      { id: 'r2', text: 'y' },
    ];
    const [payload, ...rest] = notifyPayloads({ type: 'committed', turnId: 't', answered: [], replies });
    expect(rest).toEqual([]);
    expect(JSON.parse(payload)).toEqual({ type: 'committed', turnId: 't', answered: [], repliesOmitted: true, replyIds: ['r1', 'r2'] });
  });
});
