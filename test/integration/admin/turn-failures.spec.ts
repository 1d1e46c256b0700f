import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createTurn, createUser, login, openDb } from './support/admin-fixtures';

// The dashboard's "failed and deferred turns by code" (issue #17 item 4): one row per status and
// outcome code over the chosen days, with the newest turn as an example, for the caller's tenant.

jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
const outcome = (status: string, code: string) => ({ kind: 'idle', status, code, message: `${code} happened`, at: '2026-12-03T00:00:00Z' });

interface FailureRow {
  id: string;
  status: string;
  code: string | null;
  turns: number;
  agents: number;
  lastAt: string;
  lastTurnId: string;
}

describe('GET /v1/admin/usage/failures', () => {
  it("counts the tenant's failed and deferred turns by outcome code, each turn once, with its newest example, and nothing of another tenant", async () => {
    const t = await createTenant(db);
    const other = await createTenant(db);
    const token = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const s = await createSession(db, t);
    await createTurn(db, t, s.id, { llmCalls: 1, outcomes: [outcome('ok', 'spoke')], createdAt: hoursAgo(1) });
    await createTurn(db, t, s.id, { llmCalls: 1, outcomes: [outcome('failed', 'provider-auth')], createdAt: hoursAgo(3) });
    // Deferred then failed in one turn: it counts once, as failed.
    const newestAuth = await createTurn(db, t, s.id, { llmCalls: 1, outcomes: [outcome('deferred', 'provider-unavailable'), outcome('failed', 'provider-auth')], createdAt: hoursAgo(2) });
    const deferred = await createTurn(db, t, s.id, { llmCalls: 1, outcomes: [outcome('deferred', 'provider-unavailable')], createdAt: hoursAgo(2) });
    await createTurn(db, t, s.id, { llmCalls: 0, outcomes: [{ ...outcome('deferred', 'action-deferred'), kind: 'do' }], createdAt: hoursAgo(2) });
    // Before the range.
    await createTurn(db, t, s.id, { llmCalls: 0, outcomes: [outcome('failed', 'agent-unavailable')], createdAt: new Date(`${day(-20)}T12:00:00Z`) });
    await createTurn(db, other, (await createSession(db, other)).id, { llmCalls: 1, outcomes: [outcome('failed', 'provider-auth')], createdAt: hoursAgo(1) });

    const res = await adminGet(token, '/v1/admin/usage/failures', { filter: { from: day(-6), to: day(0) } });

    expect(res.status).toBe(200);
    const rows = res.body as FailureRow[];
    expect(rows.map((r) => [r.id, r.status, r.code, r.turns, r.agents])).toEqual([
      ['failed:provider-auth', 'failed', 'provider-auth', 2, 1],
      ['deferred:provider-unavailable', 'deferred', 'provider-unavailable', 1, 1],
    ]);
    expect(rows.map((r) => r.lastTurnId)).toEqual([newestAuth.id, deferred.id]);
    expect(new Date(rows[0].lastAt).getTime()).toBe(newestAuth.createdAt.getTime());

    // The agent filter narrows it; an agent without failures has none.
    const quiet = await db.agent.create({ data: { tenantId: t.tenant.id, name: 'Quiet' } });
    expect((await adminGet(token, '/v1/admin/usage/failures', { filter: { from: day(-6), to: day(0), agentId: quiet.id } })).body).toEqual([]);
    // The older failure is there when the range reaches it.
    const wide = await adminGet(token, '/v1/admin/usage/failures', { filter: { from: day(-30), to: day(0), agentId: t.agent.id } });
    expect((wide.body as FailureRow[]).map((r) => r.id)).toContain('failed:agent-unavailable');
  });

  it('answers 400 invalid-filter to a bad day, a backwards or too long range, an unknown key and a malformed agent id', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const answers: string[] = [];
    for (const filter of [
      { from: 'yesterday' },
      { from: day(0), to: day(-1) },
      { from: day(-200), to: day(0) },
      { outcome: 'provider-auth' },
      { agentId: 'nope' },
      { agentId: [t.agent.id] },
    ]) {
      const res = await adminGet(token, '/v1/admin/usage/failures', { filter });
      answers.push(`${JSON.stringify(filter)} → ${res.status} ${(res.body as { error?: { code?: string } }).error?.code}`);
    }
    expect(answers.filter((a) => !a.endsWith('→ 400 invalid-filter'))).toEqual([]);
    const unknown = await adminGet(token, '/v1/admin/usage/failures', { since: day(0) });
    expect([unknown.status, (unknown.body as { error: { code: string } }).error.code]).toEqual([400, 'unknown-query-parameter']);
  });
});
