import { BullModule } from '@nestjs/bullmq';
import { Test, type TestingModule } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { DbModule, PrismaService } from '@switchboard/db';
import { QUEUES, redisConnection, turnJobId, type TurnJobData } from '@switchboard/queue';
import { AgentCatalog } from '../../../apps/worker/src/agents/agent-catalog';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { TurnsModule } from '../../../apps/worker/src/turns/turns.module';
import { FakeAgent, loadedAgent } from './support/fake-agent';
import { createSessionRows, queueInbound, unique, type SessionRows } from './support/rows';
import { deleteQueueKeys } from '../../support/queue-keys';

// The BullMQ turn processor with its session lease, two worker instances side by side on one
// queue, and a stand-in agent that takes time and records when each session's turns ran.

jest.setTimeout(60_000);

describe('turn processor (BullMQ + lease)', () => {
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-proc'), WORKER_CONCURRENCY: '4' });
  const agent = new FakeAgent();
  const spans: { sessionId: string; messageId: string; start: number; end: number }[] = [];
  agent.behaviour = async (input, result) => {
    const start = Date.now();
    await new Promise((r) => setTimeout(r, 15 + Math.random() * 25));
    spans.push({ sessionId: input.sessionId, messageId: input.id!, start, end: Date.now() });
    return result;
  };
  let workers: TestingModule[] = [];
  let queue: Queue<TurnJobData>;
  let prisma: PrismaService;

  async function startWorker(): Promise<TestingModule> {
    const mod = await Test.createTestingModule({
      imports: [
        WorkerEnvModule.forRoot(env),
        DbModule.forRoot({ url: env.DATABASE_URL }),
        RedisModule,
        BullModule.forRoot({ connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX }),
        TurnsModule,
      ],
    })
      .overrideProvider(AgentCatalog)
      .useValue({ forAgent: async () => loadedAgent(agent) })
      .compile();
    await mod.init();
    return mod;
  }

  beforeAll(async () => {
    workers = [await startWorker(), await startWorker()];
    prisma = workers[0].get(PrismaService);
    queue = new Queue<TurnJobData>(QUEUES.turns, { connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await queue.obliterate({ force: true });
    await queue.close();
    // The worker module's other queues (HTTP tool tests, deliveries) leave their meta keys.
    await deleteQueueKeys(env.QUEUE_PREFIX);
  });

  async function enqueue(rows: SessionRows, ids: string[]): Promise<void> {
    await queue.addBulk(
      ids.map((id) => ({
        name: 'turn',
        data: { tenantId: rows.tenantId, sessionId: rows.sessionId, messageId: id, acceptedAt: Date.now() },
        opts: { jobId: turnJobId(id), attempts: 5, backoff: { type: 'exponential', delay: 200 } },
      })),
    );
  }

  async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the worker');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('answers bursts in several sessions once each, in order, never two turns of a session at once', async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => createSessionRows(prisma)));
    const ids = new Map<string, string[]>();
    for (const rows of sessions) {
      ids.set(rows.sessionId, await queueInbound(prisma, rows, ['1', '2', '3', '4', '5', '6']));
    }
    // Every job of every session at once: eight slots across two workers race for the leases.
    await Promise.all(sessions.map((rows) => enqueue(rows, ids.get(rows.sessionId)!)));

    const sessionIds = sessions.map((s) => s.sessionId);
    await waitUntil(
      async () => (await prisma.message.count({ where: { sessionId: { in: sessionIds }, status: 'queued' } })) === 0,
    );

    for (const rows of sessions) {
      const msgs = await prisma.message.findMany({ where: { sessionId: rows.sessionId }, orderBy: { seq: 'asc' } });
      const inbound = msgs.filter((m) => m.direction === 'inbound');
      const outbound = msgs.filter((m) => m.direction === 'outbound');
      expect(inbound.map((m) => m.status)).toEqual(Array(6).fill('answered'));
      // One reply per message, in arrival order; each turn saw every earlier exchange.
      expect(outbound.map((m) => m.text)).toEqual(['1', '2', '3', '4', '5', '6'].map((t, i) => `eco: ${t} (history ${i * 2})`));
      expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(6);

      const own = spans.filter((s) => s.sessionId === rows.sessionId).sort((a, b) => a.start - b.start);
      expect(own.map((s) => s.messageId)).toEqual(ids.get(rows.sessionId));
      for (let i = 1; i < own.length; i++) expect(own[i].start).toBeGreaterThanOrEqual(own[i - 1].end);
    }
  });

  it('ends a job whose message is already answered without running a turn', async () => {
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    await enqueue(rows, [m1]);
    await waitUntil(async () => (await prisma.message.count({ where: { id: m1, status: 'answered' } })) === 1);
    const turnsBefore = agent.inputs.length;

    // The same message enqueued again under a new job id (as the sweeper would after a lost job).
    const job = await queue.add('turn', { tenantId: rows.tenantId, sessionId: rows.sessionId, messageId: m1, acceptedAt: Date.now() });
    await waitUntil(async () => (await job.getState()) === 'completed');

    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ status: 'already-answered' });
    expect(agent.inputs.length).toBe(turnsBefore);
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(1);
  });

  it('has a job whose message is already answered answer the messages still waiting after it, whose own jobs are gone', async () => {
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['primeira']);
    await enqueue(rows, [m1]);
    await waitUntil(async () => (await prisma.message.count({ where: { id: m1, status: 'answered' } })) === 1);
    // Two more messages whose jobs were lost (a flushed Redis): no job of their own runs.
    const later = await queueInbound(prisma, rows, ['segunda', 'terceira']);

    // The first message's job comes back (a retry, a redrive): it finds its message answered,
    // and it holds the lease, so it answers what waits instead of leaving it to the sweeper.
    const job = await queue.add('turn', { tenantId: rows.tenantId, sessionId: rows.sessionId, messageId: m1, acceptedAt: Date.now() });
    await waitUntil(async () => (await job.getState()) === 'completed');

    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ status: 'drained', turns: 2 });
    const inbound = await prisma.message.findMany({ where: { id: { in: later } }, orderBy: { seq: 'asc' } });
    expect(inbound.map((m) => m.status)).toEqual(['answered', 'answered']);
    const replies = await prisma.message.findMany({ where: { sessionId: rows.sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
    expect(replies.map((m) => m.text)).toEqual(['eco: primeira (history 0)', 'eco: segunda (history 2)', 'eco: terceira (history 4)']);
  });
});
