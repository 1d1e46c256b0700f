import { recordTurnUsage, type PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, openDb, tenantWithUsers } from './support/admin-fixtures';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'operator' | 'owner' | 'viewer'>>>;

const turn = (agentId: string, tenantId: string, at: string, extra: Partial<Parameters<typeof recordTurnUsage>[1]> = {}) => ({
  tenantId,
  agentId,
  at: new Date(at),
  llmCalls: 2,
  inputTokens: 100,
  outputTokens: 20,
  cachedInputTokens: 0,
  queueWaitMs: 10,
  modelMs: 300,
  toolsMs: 0,
  commitMs: 5,
  totalMs: 400,
  outcomeCodes: [] as string[],
  deferred: false,
  failed: false,
  ...extra,
});

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['operator', 'owner', 'viewer'] as const);
  const { id: tenantId } = world.tenant;
  const agentId = world.agent.id;
  // What the worker's turn commit writes (recordTurnUsage is its roll-up).
  await recordTurnUsage(db, turn(agentId, tenantId, '2026-11-30T10:00:00Z'));
  await recordTurnUsage(db, turn(agentId, tenantId, '2026-12-01T10:00:00Z', { totalMs: 3000, outcomeCodes: ['provider-unavailable'], deferred: true }));
  await recordTurnUsage(db, turn(agentId, tenantId, '2026-12-01T11:00:00Z', { outcomeCodes: ['provider-auth'], failed: true }));
  await recordTurnUsage(db, turn(agentId, tenantId, '2026-12-02T09:00:00Z', { llmCalls: 1 }));
});
afterAll(() => db.$disconnect());

describe('usage', () => {
  it('answers per agent and day from the roll-up, filtered by agent and days, with outcomes and percentiles', async () => {
    const res = await adminGet(world.tokens.operator, '/v1/admin/usage', { filter: { agentId: world.agent.id, from: '2026-12-01', to: '2026-12-02' }, sort: ['day', 'ASC'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('usage 0-1/2');
    const [dec1, dec2] = res.body as Record<string, unknown>[];
    expect(dec1).toMatchObject({
      id: `${world.agent.id}:2026-12-01`,
      day: '2026-12-01',
      turns: 2,
      llmCalls: 4,
      inputTokens: 200,
      outputTokens: 40,
      deferredTurns: 1,
      failedTurns: 1,
      latencyMs: { avg: 1700, p50: 500, p95: 4000 },
      outcomes: { 'provider-unavailable': 1, 'provider-auth': 1 },
    });
    expect(dec2).toMatchObject({ day: '2026-12-02', turns: 1, llmCalls: 1, outcomes: {} });
  });

  it('sums a range in the summary', async () => {
    const res = await adminGet(world.tokens.viewer, '/v1/admin/usage/summary', { filter: { agentId: world.agent.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ days: 3, turns: 4, llmCalls: 7, inputTokens: 400, failedTurns: 1, deferredTurns: 1, outcomes: { 'provider-auth': 1, 'provider-unavailable': 1 } });
  });

  it('refuses a malformed day', async () => {
    const res = await adminGet(world.tokens.operator, '/v1/admin/usage', { filter: { from: '12/01/2026' } });
    expect(res.status).toBe(400);
    expect((res.body as { error: { code: string } }).error.code).toBe('invalid-filter');
  });
});

describe('audit log', () => {
  it('records who changed what, newest first, and is filterable by entity', async () => {
    const created = await adminSend(world.tokens.owner, 'POST', '/v1/admin/agents', { name: 'Audited' });
    const id = (created.body as { id: string }).id;
    const put = await adminSend(world.tokens.owner, 'PUT', `/v1/admin/agents/${id}`, { name: 'Audited 2' });
    const res = await adminGet(world.tokens.operator, '/v1/admin/audit-log', { filter: { entityId: id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('audit-log 0-1/2');
    const [update, create] = res.body as { action: string; actorUserId: string; before: { name: string } | null; after: { name: string } }[];
    expect(update).toMatchObject({ action: 'agent.update', actorUserId: world.users.owner.id, before: { name: 'Audited' }, after: { name: 'Audited 2' } });
    expect((update as unknown as { requestId: string }).requestId).toBe(put.headers.get('x-request-id'));
    expect(create).toMatchObject({ action: 'agent.create', before: null });
    expect((await adminGet(world.tokens.viewer, '/v1/admin/audit-log')).status).toBe(403);
  });
});
