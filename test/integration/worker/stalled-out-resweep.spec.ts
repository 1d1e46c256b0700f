import { BullModule } from '@nestjs/bullmq';
import { Test, type TestingModule } from '@nestjs/testing';
import { Queue, Worker } from 'bullmq';
import { DbModule, PrismaService } from '@switchboard/db';
import { QUEUES, redisConnection, turnJobId, type TurnJobData } from '@switchboard/queue';
import { STALL_RESWEEPS } from '../../../apps/worker/src/config/worker-settings';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { resweepStalledOut, stalledOut, sweepJobId } from '../../../apps/worker/src/sweeper/sweep-job';
import { Sweeper } from '../../../apps/worker/src/sweeper/sweeper';
import { SweeperModule } from '../../../apps/worker/src/sweeper/sweeper.module';
import { createSessionRows, queueInbound, unique } from './support/rows';

// A turn job whose workers keep dying "stalls out" in BullMQ (failed: stalled more than
// maxStalledCount times). That is a crash of the platform, not a fault of the message: it gets a
// fresh sweep job, STALL_RESWEEPS times, and only then stays a dead letter. The stall-outs here
// are real: a worker takes the job and never renews its lock, BullMQ's stalled check finds it.

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a turn job that stalled out', () => {
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-stallout'), SWEEPER_INTERVAL_MS: '600000', SWEEPER_GRACE_MS: '5000' });
  const connection = redisConnection(env.REDIS_URL);
  let mod: TestingModule;
  let prisma: PrismaService;
  let queue: Queue<TurnJobData>;

  beforeAll(async () => {
    mod = await Test.createTestingModule({
      imports: [
        WorkerEnvModule.forRoot(env),
        DbModule.forRoot({ url: env.DATABASE_URL }),
        RedisModule,
        BullModule.forRoot({ connection, prefix: env.QUEUE_PREFIX }),
        SweeperModule,
      ],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
    queue = new Queue<TurnJobData>(QUEUES.turns, { connection, prefix: env.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await mod.close();
  });

  /**
   * Stalls `jobId` out the way dying workers do: a worker takes it and holds it without renewing
   * its lock (as a SIGKILLed process does), BullMQ's stalled check puts it back marked as stalled
   * too often (maxStalledCount 0 here), and the next worker to take it fails it without running it.
   */
  async function stallOut(jobId: string): Promise<void> {
    const opts = { connection, prefix: env.QUEUE_PREFIX, lockDuration: 300, stalledInterval: 50, maxStalledCount: 0 };
    const dying = new Worker<TurnJobData>(QUEUES.turns, null, opts);
    const ran: string[] = [];
    let checker: Worker<TurnJobData> | undefined;
    try {
      // The database is shared with other suites: the sweeper also adds jobs for their stale
      // messages to this queue. Those are finished out of the way.
      for (;;) {
        const taken = await dying.getNextJob('dying-worker');
        if (!taken) throw new Error(`${jobId} was not in the queue`);
        if (taken.id === jobId) break;
        await taken.moveToCompleted('not this test', 'dying-worker', false);
      }
      await sleep(400); // its lock has expired, never renewed
      checker = new Worker<TurnJobData>(QUEUES.turns, async (job) => void (job.id === jobId && ran.push(job.id)), { ...opts, autorun: false });
      const failed = new Promise<void>((resolve) => checker!.on('failed', (job) => job?.id === jobId && resolve()));
      void checker.run();
      await failed;
    } finally {
      await checker?.close();
      await dying.close(true);
    }
    expect(ran).toEqual([]);
  }

  it('gets a fresh sweep job at once, STALL_RESWEEPS times, then stays a dead letter', async () => {
    const rows = await createSessionRows(prisma);
    const [m] = await queueInbound(prisma, rows, ['os workers morrem']);
    await prisma.message.update({ where: { id: m }, data: { createdAt: new Date(Date.now() - 60_000) } });
    await queue.add('turn', { ...rows, messageId: m, acceptedAt: Date.now() }, { jobId: turnJobId(m) });

    await stallOut(turnJobId(m));
    const own = (await queue.getJob(turnJobId(m)))!;
    expect(await own.getState()).toBe('failed');
    expect(stalledOut(own)).toBe(true);

    // What the processor does when the job fails: a fresh job for the message, counted.
    expect(await resweepStalledOut(queue, own)).toBe(true);
    expect((await queue.getJob(sweepJobId(m)))?.data).toMatchObject({ messageId: m, stallResweeps: 1 });

    // The sweeper does the same for a sweep job that stalled out (its worker died before it could).
    for (let n = 2; n <= STALL_RESWEEPS; n++) {
      await stallOut(sweepJobId(m));
      await mod.get(Sweeper).sweepOnce();
      const fresh = (await queue.getJob(sweepJobId(m)))!;
      expect(await fresh.getState()).toBe('waiting');
      expect(fresh.data.stallResweeps).toBe(n);
    }

    // The message was in flight in 3 × (1 + STALL_RESWEEPS) dying workers: it is the cause. Dead letter.
    await stallOut(sweepJobId(m));
    const last = (await queue.getJob(sweepJobId(m)))!;
    expect(await resweepStalledOut(queue, last)).toBe(false);
    await mod.get(Sweeper).sweepOnce();
    expect(await queue.getJobState(sweepJobId(m))).toBe('failed');
    expect((await queue.getJob(sweepJobId(m)))?.data.stallResweeps).toBe(STALL_RESWEEPS);
    expect((await prisma.message.findUniqueOrThrow({ where: { id: m } })).status).toBe('queued');
    // Out of the other suites' sweeps.
    await prisma.message.update({ where: { id: m }, data: { status: 'failed' } });
  });

  it('does not sweep again a job that failed for an error of its own', async () => {
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm', acceptedAt: 0 }, failedReason: 'TypeError: a bug' };
    expect(stalledOut(job)).toBe(false);
    expect(await resweepStalledOut(queue, job as never)).toBe(false);
    expect(await queue.getJob(sweepJobId('m'))).toBeUndefined();
  });
});
