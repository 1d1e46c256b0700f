import { BullModule } from '@nestjs/bullmq';
import { Test, type TestingModule } from '@nestjs/testing';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { DbModule, PrismaService } from '@switchboard/db';
import { QUEUES, redisConnection, turnJobId, type TurnJobData } from '@switchboard/queue';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { Sweeper, sweepJobId } from '../../../apps/worker/src/sweeper/sweeper';
import { SweeperModule } from '../../../apps/worker/src/sweeper/sweeper.module';
import { wakeJobId } from '../../../apps/worker/src/wakes/wake-scheduler';
import { SWEEP_BATCH } from '../../../apps/worker/src/config/worker-settings';
import { createSessionRows, queueInbound, unique } from './support/rows';

// The sweeper against the real Postgres and Redis, with no turn worker consuming the queue, so
// the jobs it adds stay visible.

jest.setTimeout(60_000);

describe('sweeper', () => {
  // A long interval: the timer never fires during the test; ticks are driven by hand.
  const env = loadWorkerEnv({
    ...process.env,
    QUEUE_PREFIX: unique('sbt-sweep'),
    SWEEPER_INTERVAL_MS: '600000',
    SWEEPER_GRACE_MS: '5000',
  });
  let mods: TestingModule[];
  let prisma: PrismaService;
  let queue: Queue<TurnJobData>;

  async function sweeperApp(): Promise<TestingModule> {
    const mod = await Test.createTestingModule({
      imports: [
        WorkerEnvModule.forRoot(env),
        DbModule.forRoot({ url: env.DATABASE_URL }),
        RedisModule,
        BullModule.forRoot({ connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX }),
        SweeperModule,
      ],
    }).compile();
    await mod.init();
    return mod;
  }

  beforeAll(async () => {
    mods = [await sweeperApp(), await sweeperApp()];
    prisma = mods[0].get(PrismaService);
    queue = new Queue<TurnJobData>(QUEUES.turns, { connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await Promise.all(mods.map((m) => m.close()));
  });

  async function backdate(ids: string[], ms: number): Promise<void> {
    await prisma.message.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date(Date.now() - ms) } });
  }

  it('re-enqueues stale queued messages that have no live job, and only those', async () => {
    const rows = await createSessionRows(prisma);
    const [lost, withJob, fresh, answered] = await queueInbound(prisma, rows, ['perdida', 'com job', 'nova', 'respondida']);
    await backdate([lost, withJob, answered], 60_000);
    await prisma.message.update({ where: { id: answered }, data: { status: 'answered', answeredAt: new Date() } });
    await queue.add('turn', { ...rows, messageId: withJob, acceptedAt: Date.now() }, { jobId: turnJobId(withJob) });

    const report = await mods[0].get(Sweeper).sweepOnce();

    expect(report.enqueued).toBeGreaterThanOrEqual(1);
    const job = await queue.getJob(sweepJobId(lost));
    expect(job?.data).toEqual({ tenantId: rows.tenantId, sessionId: rows.sessionId, messageId: lost, acceptedAt: expect.any(Number) });
    expect(await queue.getJob(sweepJobId(withJob))).toBeUndefined();
    expect(await queue.getJob(sweepJobId(fresh))).toBeUndefined();
    expect(await queue.getJob(sweepJobId(answered))).toBeUndefined();

    // The sweep job is live now: the next sweep adds nothing for that message.
    await mods[0].get(Sweeper).sweepOnce();
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs.filter((j) => j.data.messageId === lost)).toHaveLength(1);
  });

  it('re-enqueues a message whose own job finished while it stayed queued', async () => {
    const rows = await createSessionRows(prisma);
    const [m] = await queueInbound(prisma, rows, ['x']);
    await backdate([m], 60_000);
    // The job ran and failed for good (e.g. a bug), leaving the message queued.
    await queue.add('turn', { ...rows, messageId: m, acceptedAt: Date.now() }, { jobId: turnJobId(m) });
    const failing = await queue.getJob(turnJobId(m));
    await failing!.remove();
    await mods[0].get(Sweeper).sweepOnce();
    expect((await queue.getJob(sweepJobId(m)))?.data.messageId).toBe(m);
  });

  it('leaves a message alone once its sweep job failed all its attempts (dead-lettered)', async () => {
    const rows = await createSessionRows(prisma);
    const [m] = await queueInbound(prisma, rows, ['sempre falha']);
    await backdate([m], 60_000);
    await mods[0].get(Sweeper).sweepOnce();
    const job = await queue.getJob(sweepJobId(m));
    expect(job?.opts.attempts).toBe(5);
    // Fail it for good, as a worker does after the last attempt (unrecoverable: no retry left).
    const worker = new Worker(QUEUES.turns, null, { connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
    try {
      for (;;) {
        const next = await worker.getNextJob('test-token');
        if (!next) throw new Error('the sweep job was not in the queue');
        if (next.id !== job!.id) {
          await next.moveToCompleted('not this test', 'test-token', false);
          continue;
        }
        await next.moveToFailed(new UnrecoverableError('boom'), 'test-token', false);
        break;
      }
    } finally {
      await worker.close();
    }
    expect(await queue.getJobState(sweepJobId(m))).toBe('failed');

    await mods[0].get(Sweeper).sweepOnce();

    expect(await queue.getJobState(sweepJobId(m))).toBe('failed');
  });

  it('looks past a whole batch of messages with live jobs on its next sweeps', async () => {
    const rows = await createSessionRows(prisma);
    // SWEEP_BATCH messages whose jobs are live (a backlog), then one whose job was lost.
    await prisma.message.createMany({
      data: Array.from({ length: SWEEP_BATCH }, (_, i) => ({ tenantId: rows.tenantId, sessionId: rows.sessionId, channelId: rows.channelId, direction: 'inbound' as const, status: 'queued' as const, text: `fila ${i}` })),
    });
    const [lost] = await queueInbound(prisma, rows, ['perdida atrás da fila']);
    const backlog = await prisma.message.findMany({ where: { sessionId: rows.sessionId, id: { not: lost } }, select: { id: true } });
    await backdate([...backlog.map((m) => m.id), lost], 60_000);
    await queue.addBulk(backlog.map((m) => ({ name: 'turn', data: { ...rows, messageId: m.id, acceptedAt: Date.now() }, opts: { jobId: turnJobId(m.id) } })));

    // The first sweep's batch ends before it (older stale rows of other suites only push it
    // further); each next sweep goes on where the last one stopped, so it is reached.
    const sweeper = mods[1].get(Sweeper);
    let sweeps = 0;
    while (!(await queue.getJob(sweepJobId(lost))) && sweeps < 4) {
      await sweeper.sweepOnce();
      sweeps++;
    }
    expect(sweeps).toBeGreaterThanOrEqual(2);
    expect((await queue.getJob(sweepJobId(lost)))?.data.messageId).toBe(lost);
    expect(await queue.getJob(sweepJobId(backlog[0].id))).toBeUndefined();
    await prisma.message.updateMany({ where: { sessionId: rows.sessionId }, data: { status: 'answered' } });
  });

  it('re-adds the job of a scheduled wake whose job is gone, and leaves fired and far-off wakes alone', async () => {
    const rows = await createSessionRows(prisma);
    const wake = (key: string, dueAt: Date, status: 'scheduled' | 'fired' = 'scheduled') =>
      prisma.wake.create({ data: { tenantId: rows.tenantId, sessionId: rows.sessionId, key, dueAt, status } });
    const dueKey = `hospedagem#m1:oferta:1:retry:${Date.now() - 60_000}`;
    await wake(dueKey, new Date(Date.now() - 60_000));
    await wake('soon', new Date(Date.now() + 5_000));
    await wake('fired', new Date(Date.now() - 60_000), 'fired');
    await wake('next-week', new Date(Date.now() + 7 * 24 * 3600_000));

    const report = await mods[0].get(Sweeper).sweepOnce();

    expect(report.wakesEnqueued).toBeGreaterThanOrEqual(2);
    const job = await queue.getJob(wakeJobId(rows.sessionId, dueKey));
    expect(job?.data).toMatchObject({ tenantId: rows.tenantId, sessionId: rows.sessionId, wake: dueKey });
    // Due before the next sweep: added now with its remaining delay, so it fires on time.
    const soon = await queue.getJob(wakeJobId(rows.sessionId, 'soon'));
    expect(await soon?.getState()).toBe('delayed');
    expect(await queue.getJob(wakeJobId(rows.sessionId, 'fired'))).toBeUndefined();
    expect(await queue.getJob(wakeJobId(rows.sessionId, 'next-week'))).toBeUndefined();

    await mods[0].get(Sweeper).sweepOnce();
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs.filter((j) => (j.data as { wake?: string }).wake === dueKey)).toHaveLength(1);
  });

  it('lets one worker sweep per interval', async () => {
    const results = await Promise.all(mods.map((m) => m.get(Sweeper).tick()));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await mods[0].get(Sweeper).tick()).toBeNull();
  });
});
