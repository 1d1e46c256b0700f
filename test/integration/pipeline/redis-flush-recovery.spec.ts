import { randomBytes } from 'node:crypto';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import { createPrismaClient, type PrismaClient } from '@switchboard/db';
import { Queue } from 'bullmq';
import { QUEUES, redisConnection, TURN_JOB_OPTIONS, turnJobId } from '@switchboard/queue';
import type { Redis } from 'ioredis';
import { startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../support/test-database';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { claimRedisDb, flushClaimedDb } from '../../support/redis-db';
import { eventually } from '../worker/support/private-api';

// "Redis flushed while messages are queued": every accepted message is still answered, once and
// in order, within about one sweeper period. The flush must not touch anyone else's keys, and a
// live sweeper sweeps the whole database: so this suite runs on its own Postgres database and its
// own Redis logical database (FLUSHDB there only — never FLUSHALL on the shared Redis).

jest.setTimeout(240_000);

const SWEEPER_INTERVAL_MS = 2_000;
const SWEEPER_GRACE_MS = 1_000;

describe('Redis flushed while messages are queued', () => {
  const dbName = uniqueName('sbt_flush');
  const token = randomBytes(8).toString('hex');
  let databaseUrl: string;
  let redisUrl: string;
  let redis: Redis;
  let prisma: PrismaClient;
  let api: ApiProcess | undefined;
  let worker: WorkerProcess | undefined;
  let fx: TenantFixture;
  const queuePrefix = `sbt-flush-${uniqueSuffix()}`;

  beforeAll(async () => {
    databaseUrl = await createMigratedDatabase(dbName);
    ({ url: redisUrl, redis } = await claimRedisDb(process.env.REDIS_URL!, token));
    prisma = createPrismaClient({ connectionString: databaseUrl, max: 3 });
    fx = await createTenantFixture(prisma, { agentConfig: conciergeAgentConfig });
    api = await startApi(
      { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn' },
      queuePrefix,
    );
  });

  afterAll(async () => {
    await worker?.kill();
    if (api) await stopApi(api.child);
    await prisma?.$disconnect();
    if (redis) {
      await redis.flushdb();
      await redis.quit();
    }
    await dropDatabase(dbName);
  });

  it('answers every message once and in order within about one sweeper period after a FLUSHDB', async () => {
    const texts = ['Quero um quarto em Curitiba', 'Sim, pode reservar', 'Obrigado'];
    const sessions = [`f1-${uniqueSuffix()}`, `f2-${uniqueSuffix()}`, `f3-${uniqueSuffix()}`];
    const accepted: { messageId: string; sessionId: string }[] = [];
    for (const text of texts) {
      for (const session of sessions) {
        const res = await fetch(`${api!.baseUrl}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ session, text }),
        });
        expect(res.status).toBe(202);
        accepted.push((await res.json()) as { messageId: string; sessionId: string });
      }
    }
    // The jobs exist before the flush (so the flush is what loses them), with the shared retry options...
    const queue = new Queue(QUEUES.turns, { connection: redisConnection(redisUrl), prefix: queuePrefix });
    try {
      // Every add has landed (on a loaded machine the API may answer before a slow add finishes,
      // and an add landing after the flush would bring a job back that the sweeper should).
      await eventually(async () => (await Promise.all(accepted.map((a) => queue.getJob(turnJobId(a.messageId))))).every(Boolean), 30_000);
      const job = await queue.getJob(turnJobId(accepted[0].messageId));
      expect(job?.opts).toMatchObject({ attempts: TURN_JOB_OPTIONS.attempts, backoff: TURN_JOB_OPTIONS.backoff });
    } finally {
      await queue.close();
    }
    await flushClaimedDb(redis, token);
    expect(await redis.keys(`${queuePrefix}:*`)).toEqual([]);

    // ...and no worker ran before it: only the sweeper can bring them back.
    worker = await startWorker({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      SWEEPER_INTERVAL_MS: String(SWEEPER_INTERVAL_MS),
      SWEEPER_GRACE_MS: String(SWEEPER_GRACE_MS),
    });
    const ready = Date.now();
    const ids = accepted.map((a) => a.messageId);
    await eventually(
      async () => (await prisma.message.count({ where: { id: { in: ids }, status: 'answered' } })) === ids.length,
      120_000,
    );
    const elapsed = Date.now() - ready;

    // The sweeper found them all (one sweep may take the batch, or several on a slow machine). A
    // sweep logs once it has added its whole batch, which can be after the turns it started have
    // committed: wait for the line rather than read the log at once.
    const swept = () => worker!.logs.filter((l) => l.msg === 'sweep').reduce((n, l) => n + Number(l.enqueued ?? 0), 0);
    await eventually(async () => swept() >= ids.length, 10_000).catch(() => undefined);
    expect(swept()).toBe(ids.length);
    // A couple of sweeper periods plus the turns themselves; generous for a loaded 2-core machine.
    expect(elapsed).toBeLessThan(60_000);

    for (const sessionId of new Set(accepted.map((a) => a.sessionId))) {
      const msgs = await prisma.message.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
      const inbound = msgs.filter((m) => m.direction === 'inbound');
      const outbound = msgs.filter((m) => m.direction === 'outbound');
      expect(inbound.map((m) => m.text)).toEqual(texts);
      // Exactly one turn per inbound message, committed in arrival order, each with its reply.
      const turnIds = inbound.map((m) => m.turnId);
      expect(new Set(turnIds).size).toBe(texts.length);
      expect(outbound.map((m) => m.turnId)).toEqual(turnIds);
      expect(await prisma.turn.count({ where: { sessionId } })).toBe(texts.length);
      expect(outbound[0].text).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
    }
  });
});
