import type { PrismaClient } from '@switchboard/db';
import { createBullQueue, QUEUES, turnJobId, type RedisClient } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { REDIS } from '../../../apps/api/src/redis/redis.tokens';
import { startInProcessApi, type InProcessApi } from '../../security/support/in-process-api';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { deleteQueueKeys } from '../../support/queue-keys';

// What an accepted message costs the API's Redis client (docs/ingest-path.md, steps 3 and 6):
// the key's and the tenant's rate-limit windows are counted in ONE write (auto-pipelining), and
// the turn job's fair-share count is made once per message, in a write of its own, with the job
// added at the priority it gave. A change that splits the windows into two writes (the client's
// auto-pipelining turned off, a limiter on another client) or counts a job twice fails here.

jest.setTimeout(120_000);

let api: InProcessApi;
let prisma: PrismaClient;
let queue: Queue;
let fx: TenantFixture;
const prefix = `sbt-ingest-writes-${uniqueSuffix()}`;

beforeAll(async () => {
  prisma = testPrisma();
  api = await startInProcessApi({ QUEUE_PREFIX: prefix });
  queue = createBullQueue(QUEUES.turns, api.env);
  fx = await createTenantFixture(prisma);
});
afterAll(async () => {
  await queue?.close();
  await api?.close();
  await prisma?.$disconnect();
  await deleteQueueKeys(prefix);
});

async function post(text: string): Promise<string> {
  const res = await api.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
    payload: { session: `writes-${uniqueSuffix()}`, text },
  });
  expect(res.statusCode).toBe(202);
  return (res.json() as { messageId: string }).messageId;
}

/** Every chunk the client writes to its socket while `run` runs, as text. */
async function writesDuring(redis: RedisClient, run: () => Promise<void>): Promise<string[]> {
  const stream = (redis as unknown as { stream: { write: (chunk: unknown, ...rest: unknown[]) => boolean } }).stream;
  const write = stream.write;
  const chunks: string[] = [];
  stream.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk));
    return write.call(this, chunk, ...rest);
  };
  try {
    await run();
  } finally {
    stream.write = write;
  }
  return chunks;
}

describe('an accepted message on Redis', () => {
  it('counts both rate-limit windows in one write and its job’s place in line once', async () => {
    // The first message loads the key, the tenant's weight and the scripts.
    const first = await post('one');
    const redis = api.app.get<RedisClient>(REDIS);

    let second = '';
    const chunks = await writesDuring(redis, async () => {
      second = await post('two');
    });

    const keyWindow = `${prefix}:ingest-rate:key:${fx.apiKeyId}`;
    const tenantWindow = `${prefix}:ingest-rate:tenant:${fx.tenant.id}`;
    const fairShare = `${prefix}:fair-share:${fx.tenant.id}`;
    const limiting = chunks.filter((c) => c.includes(keyWindow) || c.includes(tenantWindow));
    expect(limiting).toHaveLength(1);
    expect(limiting[0]).toContain(keyWindow);
    expect(limiting[0]).toContain(tenantWindow);
    expect(chunks.filter((c) => c.includes(fairShare))).toHaveLength(1);

    // Counted once per message: the tenant's second job is second in line.
    expect(await redis.get(fairShare)).toBe('2');
    const jobs = await Promise.all([first, second].map((id) => queue.getJob(turnJobId(id))));
    expect(jobs.map((j) => j?.priority)).toEqual([1, 2]);
  });
});
