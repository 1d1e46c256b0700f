import type { PrismaClient } from '@switchboard/db';
import { freePort, startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { uniqueName } from '../../support/test-database';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

// A second API process whose Redis is unreachable (nothing listens on its port). Postgres is
// the source of truth, so messages are still accepted and stored `queued` for the sweeper.

let api: ApiProcess;
let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  const deadRedis = `redis://127.0.0.1:${await freePort()}`;
  [api, prisma] = await Promise.all([
    startApi({ ...process.env, REDIS_URL: deadRedis }, uniqueName('redis-down'), 'live'),
    testPrisma(),
  ]);
  fx = await createTenantFixture(prisma);
}, 90_000);

afterAll(async () => {
  if (api) await stopApi(api.child);
  await prisma.$disconnect();
});

async function post(path: string, payload: unknown) {
  const started = Date.now();
  const res = await fetch(api.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as { messageId: string; status: string }, elapsedMs: Date.now() - started };
}

describe('with Redis down', () => {
  it('still accepts a message: 202, stored as queued', async () => {
    const res = await post('/v1/messages', { session: `s-${uniqueSuffix()}`, text: 'is anyone there?' });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    const stored = await prisma.message.findUniqueOrThrow({ where: { id: res.body.messageId } });
    expect(stored.status).toBe('queued');
  });

  it('a ?wait request answers 202 instead of failing', async () => {
    const res = await post('/v1/messages?wait=5', { session: `s-${uniqueSuffix()}`, text: 'hello?' });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    expect(res.elapsedMs).toBeLessThan(8000);
  });

  it('/health/ready answers 503 not-ready naming Redis', async () => {
    const res = await fetch(`${api.baseUrl}/health/ready`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as {
      error: { code: string; details: { error: Record<string, { status: string }>; info: Record<string, { status: string }> } };
    };
    expect(body.error.code).toBe('not-ready');
    expect(body.error.details.error.redis.status).toBe('down');
    expect(body.error.details.info.postgres.status).toBe('up');
  });
});
