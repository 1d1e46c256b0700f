import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import { createRedisClient, QUEUES, turnJobId, type RedisClient, type TurnJobData } from '@switchboard/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { WORKER_ENV } from '../../../apps/worker/src/config/worker-env';
import { REDIS } from '../../../apps/worker/src/redis/redis.module';
import { removalQueueProviders } from '../../../apps/worker/src/turns/removal-queue';
import { RetireAnsweredJobs } from '../../../apps/worker/src/turns/retire-answered-jobs';
import { uniqueSuffix } from '../../support/fixtures';

// A drain's commit sets off the removal of the burst's other jobs in the same tick as the turn's
// `committed` event (and, at the drain's end, the lease's release), all on the worker's own
// auto-pipelined client: one socket write for all of them, where each removal was a write of its
// own on BullMQ's connection (docs/hot-path.md, "What a burst costs").

describe('RetireAnsweredJobs on Redis', () => {
  const prefix = `sbt-retire-${uniqueSuffix()}`;
  let redis: RedisClient;
  let producerClient: RedisClient;
  let producer: Queue<TurnJobData>;

  beforeAll(() => {
    redis = createRedisClient(process.env.REDIS_URL!, { lazyConnect: false, enableAutoPipelining: true });
    producerClient = createRedisClient(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    producer = new Queue<TurnJobData>(QUEUES.turns, { prefix, connection: producerClient });
  });
  afterAll(async () => {
    await producer.obliterate({ force: true }).catch(() => undefined);
    await producer.close();
    await producerClient.quit();
    await redis.quit();
  });

  it('removes a burst’s jobs in the one write that carries the turn’s event', async () => {
    const data = (messageId: string): TurnJobData & { messageId: string } => ({ tenantId: 't', sessionId: 's', messageId, acceptedAt: Date.now() });
    // The burst's later jobs wait delayed, as a job that found the lease busy does.
    for (const id of ['m2', 'm3']) await producer.add('turn', data(id), { jobId: turnJobId(id), delay: 60_000 });
    const bullsOwn = { remove: jest.fn(async () => 0) };
    const moduleRef = await Test.createTestingModule({
      providers: [
        ...removalQueueProviders,
        RetireAnsweredJobs,
        { provide: WORKER_ENV, useValue: { QUEUE_PREFIX: prefix } },
        { provide: REDIS, useValue: redis },
        { provide: getQueueToken(QUEUES.turns), useValue: bullsOwn },
      ],
    }).compile();
    const retire = moduleRef.get(RetireAnsweredJobs);
    // Ready before counting: BullMQ loads its scripts and checks the server once per queue.
    await retire.execute(['warm-up']);

    const stream = (redis as Redis).stream;
    const written: string[] = [];
    const write = stream.write.bind(stream);
    const spy = jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
    try {
      void redis.publish(`${prefix}:events`, '{"type":"committed"}');
      await expect(retire.execute(['m2', 'm3'])).resolves.toBe(2);
    } finally {
      spy.mockRestore();
    }

    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/PUBLISH/i);
    expect(written[0].match(/EVALSHA/gi)).toHaveLength(2);
    expect(await producer.getJob(turnJobId('m2'))).toBeUndefined();
    expect(await producer.getJob(turnJobId('m3'))).toBeUndefined();
    expect(bullsOwn.remove).not.toHaveBeenCalled();
    await moduleRef.close();
  });

  it('uses the module’s own turns queue in Postgres mode (no Redis client)', async () => {
    const turns = { remove: jest.fn(async () => 1) };
    const moduleRef = await Test.createTestingModule({
      providers: [
        ...removalQueueProviders,
        RetireAnsweredJobs,
        { provide: WORKER_ENV, useValue: { QUEUE_PREFIX: prefix } },
        { provide: getQueueToken(QUEUES.turns), useValue: turns },
      ],
    }).compile();
    await expect(moduleRef.get(RetireAnsweredJobs).execute(['m9'])).resolves.toBe(1);
    expect(turns.remove).toHaveBeenCalledWith(turnJobId('m9'));
    await moduleRef.close();
  });
});
