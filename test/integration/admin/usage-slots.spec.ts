import { randomUUID } from 'node:crypto';
import { recordTurnUsage, usageSlot, type PrismaClient } from '@switchboard/db';
import { adminGet, openDb, tenantWithUsers } from './support/admin-fixtures';

// The roll-ups spread one agent's day over a slot per session (usageSlot); the console's usage
// list and summary show one row per agent and day with every slot summed.
jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let sessions: string[];

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner'] as const);
  // Sessions in at least three different slots.
  const bySlot = new Map<number, string>();
  while (bySlot.size < 3) {
    const id = randomUUID();
    bySlot.set(usageSlot(id), id);
  }
  sessions = [...bySlot.values()];
  for (const [i, sessionId] of sessions.entries()) {
    await recordTurnUsage(db, {
      tenantId: world.tenant.id, agentId: world.agent.id, sessionId, at: new Date('2026-08-15T10:00:00Z'),
      llmCalls: i + 1, inputTokens: 100, outputTokens: 10, cachedInputTokens: 0, queueWaitMs: 0, modelMs: 50, toolsMs: 0, commitMs: 5,
      totalMs: i === 0 ? 90 : 5000, outcomeCodes: i === 2 ? ['provider-auth'] : ['answered'], deferred: false, failed: i === 2,
    });
  }
});
afterAll(() => db.$disconnect());

it('stores the turns of sessions in different slots on separate rows', async () => {
  const rows = await db.usageDaily.findMany({ where: { tenantId: world.tenant.id } });
  expect(rows).toHaveLength(3);
});

it('lists one row per agent and day, with the slots summed', async () => {
  const res = await adminGet(world.tokens.owner, '/v1/admin/usage', { filter: { from: '2026-08-15', to: '2026-08-15' }, sort: ['turns', 'DESC'] });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-range')).toBe('usage 0-0/1');
  expect(res.body).toEqual([
    expect.objectContaining({
      id: `${world.agent.id}:2026-08-15`,
      turns: 3,
      llmCalls: 6,
      inputTokens: 300,
      failedTurns: 1,
      latencyMs: expect.objectContaining({ p50: 8000, p95: 8000 }),
      outcomes: { answered: 2, 'provider-auth': 1 },
    }),
  ]);
});

it('sums the slots in the summary', async () => {
  const res = await adminGet(world.tokens.owner, '/v1/admin/usage/summary', { filter: { from: '2026-08-15', to: '2026-08-15' } });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ days: 1, turns: 3, llmCalls: 6, failedTurns: 1, outcomes: { answered: 2, 'provider-auth': 1 } });
});
