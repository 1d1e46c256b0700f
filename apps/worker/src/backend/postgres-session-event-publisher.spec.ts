import type { SessionEvent } from '@switchboard/queue';
import { MAX_NOTIFY_BYTES, notifyPayloads, PostgresSessionEventPublisher } from './postgres-session-event-publisher';

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

describe('PostgresSessionEventPublisher: one statement per batch, in order', () => {
  /** A SqlRunner that records each statement's notifications and answers when told. */
  function fakeDb() {
    const statements: { channels: string[]; payloads: string[] }[] = [];
    const answers: { resolve: () => void; reject: (err: Error) => void }[] = [];
    const db = {
      query: jest.fn((_text: string, values?: unknown[]) => {
        const [channels, payloads] = values as [string[], string[]];
        statements.push({ channels, payloads });
        return new Promise<{ rows: unknown[] }>((resolve, reject) => answers.push({ resolve: () => resolve({ rows: [] }), reject }));
      }),
    };
    const flush = () => new Promise((r) => setImmediate(r));
    return { db, statements, answers, flush };
  }
  const delta = (text: string): SessionEvent => ({ type: 'delta', turnId: 't', delta: text });
  const types = (payloads: string[]) => payloads.map((p) => (JSON.parse(p) as SessionEvent).type);

  it('sends a turn’s last delta and its committed event, published in one tick, in one statement, delta first', async () => {
    const { db, statements, answers, flush } = fakeDb();
    const publisher = new PostgresSessionEventPublisher(db);
    const sent = Promise.all([
      publisher.publish('s:1', delta('Olá!')),
      publisher.publish('s:1', { type: 'committed', turnId: 't', answered: ['m'], replies: [{ id: 'r', text: 'Olá!' }] }),
    ]);
    await flush();
    expect(statements).toHaveLength(1);
    expect(types(statements[0].payloads)).toEqual(['delta', 'committed']);
    answers[0].resolve();
    await sent;
  });

  it('sends what comes while a statement is in flight in the next one, only after it', async () => {
    const { db, statements, answers, flush } = fakeDb();
    const publisher = new PostgresSessionEventPublisher(db);
    const first = publisher.publish('s:1', delta('a'));
    await flush();
    const later = [publisher.publish('s:2', delta('b')), publisher.publish('s:3', delta('c'))];
    await flush();
    expect(statements).toHaveLength(1);
    answers[0].resolve();
    await first;
    await flush();
    expect(statements).toHaveLength(2);
    expect(statements[1].channels).toEqual(['s:2', 's:3']);
    answers[1].resolve();
    await Promise.all(later);
  });

  it('never puts one notification twice in a statement (Postgres would deliver it once): the repeat goes in the next', async () => {
    const { db, statements, answers, flush } = fakeDb();
    const publisher = new PostgresSessionEventPublisher(db);
    // A delta too long for one notification, cut into six equal pieces, then one other event.
    const text = 'a'.repeat(9_000);
    expect(new Set(notifyPayloads(delta(text))).size).toBe(1);
    const sent = [publisher.publish('s:1', delta(text)), publisher.publish('s:1', delta('b'))];
    for (let i = 0; i < notifyPayloads(delta(text)).length; i++) {
      await flush();
      expect(statements).toHaveLength(i + 1);
      answers[i].resolve();
    }
    await Promise.all(sent);
    expect(statements.map((st) => st.payloads.map((p) => (JSON.parse(p) as { delta: string }).delta.length))).toEqual([[1_500], [1_500], [1_500], [1_500], [1_500], [1_500, 1]]);
  });

  it('fails the events of a statement that failed, and sends the next batch all the same', async () => {
    const { db, statements, answers, flush } = fakeDb();
    const publisher = new PostgresSessionEventPublisher(db);
    const lost = publisher.publish('s:1', delta('a'));
    await flush();
    const next = publisher.publish('s:1', delta('b'));
    answers[0].reject(new Error('connection lost'));
    await expect(lost).rejects.toThrow('connection lost');
    await flush();
    expect(statements).toHaveLength(2);
    answers[1].resolve();
    await expect(next).resolves.toBeUndefined();
  });
});
