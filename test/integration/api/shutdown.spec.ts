import type { PrismaClient } from '@switchboard/db';
import { startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { uniqueName } from '../../support/test-database';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

// SIGTERM while a channel is waiting for a reply: the waiting request is answered (202, its
// message safely stored) instead of being cut off, and the process exits promptly.

let api: ApiProcess;
let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  [api, prisma] = await Promise.all([startApi(process.env, uniqueName('shutdown')), testPrisma()]);
  fx = await createTenantFixture(prisma);
}, 90_000);

afterAll(async () => {
  if (api) await stopApi(api.child);
  await prisma.$disconnect();
});

it('answers a waiting request with 202 and exits on SIGTERM', async () => {
  const session = `s-${uniqueSuffix()}`;
  const pending = fetch(`${api.baseUrl}/v1/messages?wait=25`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session, text: 'still there?' }),
  });
  // Wait until the message is stored, i.e. the request is now waiting for the reply.
  for (let i = 0; i < 400 && (await prisma.message.count({ where: { session: { externalKey: session, tenantId: fx.tenant.id } } })) === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    api.child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = Date.now();
  api.child.kill('SIGTERM');

  const res = await pending;
  expect(res.status).toBe(202);
  expect(((await res.json()) as { status: string }).status).toBe('queued');
  // After its shutdown hooks Nest re-raises the signal, so a clean exit reports SIGTERM.
  expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
  expect(Date.now() - started).toBeLessThan(20_000); // well before the 25 s wait would end
}, 60_000);
