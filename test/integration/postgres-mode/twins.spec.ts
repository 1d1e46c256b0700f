import { randomUUID } from 'node:crypto';
import type { PrismaService } from '@switchboard/db';
import { ensureRuntimeSchema, sessionChannel, type SessionEvent } from '@switchboard/queue';
import { Pool } from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { PostgresSessionEventsSubscriber } from '../../../apps/api/src/redis/postgres-session-events.subscriber';
import { PostgresRateLimiters } from '../../../apps/api/src/redis/rate-limiters';
import { PostgresSessionEventPublisher } from '../../../apps/worker/src/backend/postgres-session-event-publisher';
import type { WorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { PostgresLeaseStore } from '../../../apps/worker/src/lease/postgres-lease-store';
import { Sweeper } from '../../../apps/worker/src/sweeper/sweeper';

// The Postgres twins of what Redis does in production, each against the test database:
// LISTEN/NOTIFY session events, rate-limit counters, the sweeper's single-runner lock.
// (Lease mutual exclusion and expiry: apps/worker/src/lease/session-lease.spec.ts, both stores.)

jest.setTimeout(30_000);

let pool: Pool;

beforeAll(async () => {
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  await ensureRuntimeSchema(pool);
});
afterAll(async () => {
  await pool.end();
});

/** Resolves with the first `count` events a listener of `channel` gets. */
function collect(subscriber: PostgresSessionEventsSubscriber, channel: string, count: number): Promise<{ events: Promise<SessionEvent[]>; stop: () => void }> {
  const events: SessionEvent[] = [];
  let done!: (e: SessionEvent[]) => void;
  const all = new Promise<SessionEvent[]>((r) => (done = r));
  return subscriber
    .listen(channel, (e) => {
      events.push(e);
      if (events.length === count) done(events);
    })
    .then((stop) => ({ events: all, stop }));
}

describe('session events over LISTEN/NOTIFY', () => {
  const replies = [{ id: randomUUID(), text: 'A diária em Curitiba sai por R$ 420. Posso reservar?' }];
  // Stands in for Prisma: the subscriber reads a turn's replies only for an oversized event.
  const prisma = { message: { findMany: jest.fn(async () => replies) } } as unknown as PrismaService;
  let subscriber: PostgresSessionEventsSubscriber;
  const publisher = () => new PostgresSessionEventPublisher(pool);

  beforeAll(() => {
    subscriber = new PostgresSessionEventsSubscriber({ DATABASE_URL: process.env.DATABASE_URL! }, prisma);
  });
  afterAll(async () => {
    await subscriber.onModuleDestroy();
  });

  it('delivers a committed event published after listen() resolved, to every listener of the channel', async () => {
    const channel = sessionChannel(randomUUID());
    const a = await collect(subscriber, channel, 1);
    const b = await collect(subscriber, channel, 1);
    const event: SessionEvent = { type: 'committed', turnId: randomUUID(), answered: [randomUUID()], replies };
    await publisher().publish(channel, event);
    expect(await a.events).toEqual([event]);
    expect(await b.events).toEqual([event]);
    a.stop();
    b.stop();
  });

  it('keeps channels apart', async () => {
    const mine = sessionChannel(randomUUID());
    const other = sessionChannel(randomUUID());
    const got = await collect(subscriber, mine, 1);
    await publisher().publish(other, { type: 'delta', delta: 'not for you' });
    await publisher().publish(mine, { type: 'delta', delta: 'for you' });
    expect(await got.events).toEqual([{ type: 'delta', delta: 'for you' }]);
    got.stop();
  });

  it('sends a committed event over the NOTIFY size limit without its texts and reads them from the turn', async () => {
    const channel = sessionChannel(randomUUID());
    const got = await collect(subscriber, channel, 1);
    const turnId = randomUUID();
    const big: SessionEvent = { type: 'committed', turnId, answered: ['m1'], replies: [{ id: 'r1', text: 'x'.repeat(20_000) }] };
    await publisher().publish(channel, big);
    expect(await got.events).toEqual([{ type: 'committed', turnId, answered: ['m1'], replies }]);
    // Read back by the turn and the reply ids the event kept (a delayed reply stays hidden).
    expect(prisma.message.findMany).toHaveBeenCalledWith(
      expect.objectContaining({ where: expect.objectContaining({ turnId, direction: 'outbound', id: { in: ['r1'] } }) }),
    );
    got.stop();
  });

  it('splits a long delta into pieces that arrive in order', async () => {
    const channel = sessionChannel(randomUUID());
    const text = Array.from({ length: 4000 }, (_, i) => String.fromCharCode(0x4e00 + (i % 500))).join('');
    const got = await collect(subscriber, channel, 3);
    await publisher().publish(channel, { type: 'delta', turnId: 't', delta: text });
    const events = await got.events;
    expect(events.map((e) => (e.type === 'delta' ? e.delta : '')).join('')).toBe(text);
    got.stop();
  });

  it('delivers every event of a tick in the order published, equal pieces of a long delta included, the committed event last', async () => {
    const channel = sessionChannel(randomUUID());
    // One publisher: its events of one tick go out in batches, one statement after another.
    const one = publisher();
    const deltas = Array.from({ length: 40 }, (_, i) => `parte ${i} `);
    const repeated = 'a'.repeat(9_000);
    const committed: SessionEvent = { type: 'committed', turnId: 't', answered: ['m'], replies: [] };
    const got = await collect(subscriber, channel, deltas.length + 6 + 1);
    await Promise.all([
      ...deltas.map((delta) => one.publish(channel, { type: 'delta', turnId: 't', delta })),
      one.publish(channel, { type: 'delta', turnId: 't', delta: repeated }),
      one.publish(channel, committed),
    ]);
    const events = await got.events;
    expect(events.at(-1)).toEqual(committed);
    expect(events.slice(0, -1).map((e) => (e.type === 'delta' ? e.delta : '')).join('')).toBe(deltas.join('') + repeated);
    got.stop();
  });
});

describe('rate limits in Postgres', () => {
  it('counts per id across limiter instances (as across API processes) and refuses past the limit', async () => {
    const keyPrefix = `sbt-rl-${randomUUID()}`;
    const one = new PostgresRateLimiters(pool).create({ keyPrefix, points: 3, durationSeconds: 60 });
    const two = new PostgresRateLimiters(pool).create({ keyPrefix, points: 3, durationSeconds: 60 });
    expect((await one.consume('key-a')).remainingPoints).toBe(2);
    expect((await two.consume('key-a')).remainingPoints).toBe(1);
    expect((await one.consume('key-a')).remainingPoints).toBe(0);
    const refused = await two.consume('key-a').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).toBeGreaterThan(0);
    // Another id has its own count.
    expect((await one.consume('key-b')).remainingPoints).toBe(2);
  });
});

describe("the sweeper's single-runner lock in Postgres", () => {
  it('lets one of several workers sweep per interval', async () => {
    const env = { QUEUE_PREFIX: `sbt-sw-${randomUUID()}`, SWEEPER_INTERVAL_MS: 60_000 } as WorkerEnv;
    const report = { stale: 0, enqueued: 0, dueWakes: 0, wakesEnqueued: 0 };
    const sweepers = Array.from({ length: 4 }, () => {
      const s = new Sweeper(env, new PostgresLeaseStore(pool), null as never, null as never, null as never);
      jest.spyOn(s, 'sweepOnce').mockResolvedValue(report);
      return s;
    });
    const results = await Promise.all(sweepers.map((s) => s.tick()));
    expect(results.filter((r) => r !== null)).toEqual([report]);
    expect(await sweepers[0].tick()).toBeNull(); // still within the interval
  });
});
