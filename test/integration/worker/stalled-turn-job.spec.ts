import { bullConnection, bullSchema, QUEUES } from '@switchboard/queue';
import { createPostgresBackend, Queue, Worker, withBackend, type ConnectionOptions } from 'bullmq';
import { Client } from 'pg';
import { putStalledTurnJobFirst } from '../../../apps/worker/src/turns/stalled-turn-job';
import { uniqueSuffix } from '../../support/fixtures';
import { eventually } from './support/private-api';

// A job whose worker died mid-turn comes back through BullMQ's stalled check with the priority
// it was added with. Under a backlog of lower numbers (the next fair-share window's first
// messages) it would wait behind all of them; putStalledTurnJobFirst puts it at the head of the
// line, so a killed worker's sessions are answered first (issue #24's failover target).
// Plain BullMQ, in both queue modes: a first worker takes the job and "dies" (never finishes,
// never renews its lock), a backlog arrives, a second worker's stalled check gives the job back.
// (On Redis the test fails without putStalledTurnJobFirst; BullMQ's Postgres backend served the
// stalled job first even without it when this was written, and must keep doing so.)

jest.setTimeout(60_000);

const modes: [string, 'redis' | 'postgres'][] = [
  ['Redis', 'redis'],
  ['Postgres mode', 'postgres'],
];

describe.each(modes)('a stalled turn job goes first (%s)', (_mode, backend) => {
  const prefix = `sbt-stalled-${uniqueSuffix()}`;
  const env = { QUEUE_BACKEND: backend, REDIS_URL: backend === 'redis' ? process.env.REDIS_URL! : '', DATABASE_URL: process.env.DATABASE_URL!, QUEUE_PREFIX: prefix };
  const classes = backend === 'postgres' ? (withBackend(createPostgresBackend) as unknown as { Queue: typeof Queue; Worker: typeof Worker }) : { Queue, Worker };
  const connection = (): ConnectionOptions => bullConnection(env);
  const opened: { close(): Promise<void> }[] = [];
  let queue: Queue;

  beforeAll(() => {
    queue = new classes.Queue(QUEUES.turns, { prefix, connection: connection() });
    opened.push(queue);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true }).catch(() => undefined);
    for (const q of opened.reverse()) await q.close().catch(() => undefined);
    if (backend === 'postgres') {
      const pg = new Client({ connectionString: env.DATABASE_URL });
      await pg.connect();
      await pg.query(`DROP SCHEMA IF EXISTS "${bullSchema(prefix)}" CASCADE`);
      await pg.end();
    }
  });

  it('serves the job a dead worker left before a backlog of lower priorities', async () => {
    await queue.add('turn', { n: 'stalled' }, { priority: 40 });

    // The worker that dies: takes the job, never finishes, and stops renewing its lock.
    let taken!: () => void;
    const tookIt = new Promise<void>((resolve) => (taken = resolve));
    const dying = new classes.Worker(QUEUES.turns, () => (taken(), new Promise(() => undefined)), {
      prefix,
      connection: connection(),
      lockDuration: 1_000,
      // No stalled check of its own: on Redis its first check would hold the queue's check slot
      // for its whole interval, and the survivor's check below would not run.
      skipStalledCheck: true,
      skipLockRenewal: true,
    });
    opened.push(dying);
    await tookIt;
    await dying.close(true);

    // Meanwhile the next window's messages arrive with lower numbers than the stalled job's 40.
    for (let i = 0; i < 5; i++) await queue.add('turn', { n: `backlog-${i}` }, { priority: 1 + i });

    const order: string[] = [];
    const survivor = new classes.Worker(QUEUES.turns, async (job) => void order.push(String(job.data.n)), {
      prefix,
      connection: connection(),
      autorun: false,
      concurrency: 1,
      lockDuration: 1_000,
      stalledInterval: 300,
    });
    opened.push(survivor);
    const promoted = new Promise<boolean>((resolve) => survivor.on('stalled', (jobId) => resolve(putStalledTurnJobFirst(survivor, jobId))));
    await survivor.startStalledCheckTimer();
    expect(await promoted).toBe(true);
    void survivor.run();

    await eventually(async () => order.length === 6, 30_000);
    expect(order).toEqual(['stalled', 'backlog-0', 'backlog-1', 'backlog-2', 'backlog-3', 'backlog-4']);
  });
});
