import { BullModule } from '@nestjs/bullmq';
import { Test, type TestingModule } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { DbModule, PrismaService } from '@switchboard/db';
import { flowInputWakeKey, QUEUES, redisConnection, wakeJobId, type FlowInput, type TurnJobData } from '@switchboard/queue';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { Sweeper } from '../../../apps/worker/src/sweeper/sweeper';
import { SweeperModule } from '../../../apps/worker/src/sweeper/sweeper.module';
import { asFlowInput } from '../../../apps/worker/src/wakes/flow-input-loader';
import { createSessionRows, unique } from '../worker/support/rows';

// An event or start the API stored but whose job never reached Redis (the enqueue after the
// commit failed): the sweeper finds the due Wake row with no live job and adds the job, with the
// same job id the API would have used; the worker then reads the input from the row's payload.

jest.setTimeout(60_000);

describe('a flow input whose job was lost', () => {
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-input'), SWEEPER_INTERVAL_MS: '600000' });
  let mod: TestingModule;
  let prisma: PrismaService;
  let queue: Queue<TurnJobData>;

  beforeAll(async () => {
    mod = await Test.createTestingModule({
      imports: [
        WorkerEnvModule.forRoot(env),
        DbModule.forRoot({ url: env.DATABASE_URL }),
        RedisModule,
        BullModule.forRoot({ connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX }),
        SweeperModule,
      ],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
    queue = new Queue<TurnJobData>(QUEUES.turns, { connection: redisConnection(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await mod.close();
  });

  it.each<FlowInput>([
    { kind: 'event', event: 'pagamento.aprovado', key: 'pay-1', data: { cidade: 'Rio' } },
    { kind: 'start', flow: 'confirmar', key: 'start-1' },
  ])('is re-enqueued by the sweeper and read back from its row ($kind)', async (input) => {
    const rows = await createSessionRows(prisma);
    const key = flowInputWakeKey(input);
    await prisma.wake.create({
      data: { tenantId: rows.tenantId, sessionId: rows.sessionId, key, dueAt: new Date(Date.now() - 1000), payload: input as object },
    });

    await mod.get(Sweeper).sweepOnce();

    const job = await queue.getJob(wakeJobId(rows.sessionId, key));
    expect(job?.name).toBe(input.kind);
    expect(job?.data).toMatchObject({ tenantId: rows.tenantId, sessionId: rows.sessionId, wake: key });
    const row = await prisma.wake.findUniqueOrThrow({ where: { sessionId_key: { sessionId: rows.sessionId, key } } });
    expect(asFlowInput(row.payload)).toEqual(input);
  });
});
