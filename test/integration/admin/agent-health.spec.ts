import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createTurn, createUser, login, openDb } from './support/admin-fixtures';

// See auth.spec.ts: the project-level testTimeout is not applied.
jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
const ok = { kind: 'idle', status: 'ok', code: 'spoke', at: '2026-12-03T00:00:00Z' };
const failed = (code: string, message: string) => ({ kind: 'idle', status: 'failed', code, message, at: '2026-12-03T00:00:00Z' });
const deferred = (code: string, message: string) => ({ kind: 'idle', status: 'deferred', code, message, at: '2026-12-03T00:00:00Z' });

interface Health {
  id: string;
  windowMinutes: number;
  turns: number;
  failed: number;
  deferred: number;
  failingShare: number;
  status: string;
  lastFailure: { turnId: string; sessionId: string; status: string; code: string; message: string; at: string } | null;
}

describe('GET /v1/admin/agent-health', () => {
  it("counts an agent's failed and deferred turns of the last hour and names the last failure", async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const session = await createSession(db, t);
    await createTurn(db, t, session.id, { llmCalls: 1, outcomes: [failed('provider-auth', 'old key rejected')], createdAt: at(90) });
    await createTurn(db, t, session.id, { llmCalls: 1, outcomes: [ok], createdAt: at(50) });
    await createTurn(db, t, session.id, { llmCalls: 1, outcomes: [ok], createdAt: at(40) });
    // An action that asked to run later is the agent working as designed, not a fault.
    await createTurn(db, t, session.id, { llmCalls: 0, outcomes: [{ ...deferred('action-deferred', 'later'), kind: 'do' }], createdAt: at(30) });
    await createTurn(db, t, session.id, { llmCalls: 1, outcomes: [deferred('provider-unavailable', 'model answered 500')], createdAt: at(20) });
    const last = await createTurn(db, t, session.id, {
      llmCalls: 1,
      outcomes: [deferred('provider-unavailable', 'model answered 500'), failed('provider-auth', 'The API key was rejected')],
      createdAt: at(5),
    });

    const one = await adminGet(token, `/v1/admin/agent-health/${t.agent.id}`);

    expect(one.status).toBe(200);
    const h = one.body as Health;
    expect({ ...h, lastFailure: { ...h.lastFailure, at: undefined } }).toEqual({
      id: t.agent.id,
      windowMinutes: 60,
      turns: 5,
      failed: 1,
      deferred: 1,
      failingShare: 0.4,
      status: 'degraded',
      lastFailure: { turnId: last.id, sessionId: session.id, status: 'failed', code: 'provider-auth', message: 'The API key was rejected', at: undefined },
    });
    expect(new Date(h.lastFailure!.at).getTime()).toBe(last.createdAt.getTime());
  });

  it('lists the health of the agents asked for (react-admin getMany), idle ones included, and none of another tenant', async () => {
    const t = await createTenant(db);
    const other = await createTenant(db);
    const token = await login((await createUser(db, 'operator', t.tenant.id)).email);
    const quiet = await db.agent.create({ data: { tenantId: t.tenant.id, name: 'Quiet' } });
    const session = await createSession(db, t);
    await createTurn(db, t, session.id, { llmCalls: 1, outcomes: [failed('agent-unavailable', 'regex (?i) does not compile')], createdAt: at(1) });
    await createTurn(db, other, (await createSession(db, other)).id, { llmCalls: 1, outcomes: [failed('provider-auth', 'x')], createdAt: at(1) });

    const res = await adminGet(token, '/v1/admin/agent-health', { filter: { id: [t.agent.id, quiet.id, other.agent.id] }, sort: ['name', 'ASC'] });

    expect(res.status).toBe(200);
    expect((res.body as Health[]).map((h) => [h.id, h.turns, h.failed, h.failingShare, h.status, h.lastFailure?.code ?? null])).toEqual([
      [t.agent.id, 1, 1, 1, 'failing', 'agent-unavailable'],
      [quiet.id, 0, 0, 0, 'idle', null],
    ]);
    expect(res.headers.get('content-range')).toBe('agent-health 0-1/2');
    expect((await adminGet(token, `/v1/admin/agent-health/${other.agent.id}`)).status).toBe(404);
  });

  it('answers 400 for a malformed id filter and 404 for a malformed id', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const bad = await adminGet(token, '/v1/admin/agent-health', { filter: { id: ['nope'] } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string } }).error.code).toBe('invalid-filter');
    expect((await adminGet(token, '/v1/admin/agent-health/nope')).status).toBe(404);
  });
});

describe('GET /v1/admin/sessions: lastTurnFailure', () => {
  it('flags a session whose newest turn failed, and not one that recovered', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const broken = await createSession(db, t);
    const recovered = await createSession(db, t);
    await createTurn(db, t, broken.id, { llmCalls: 1, outcomes: [ok], createdAt: at(10) });
    const bad = await createTurn(db, t, broken.id, { llmCalls: 1, outcomes: [failed('provider-quota', 'quota exceeded')], createdAt: at(2) });
    await createTurn(db, t, recovered.id, { llmCalls: 1, outcomes: [failed('provider-quota', 'quota exceeded')], createdAt: at(10) });
    await createTurn(db, t, recovered.id, { llmCalls: 1, outcomes: [ok], createdAt: at(2) });

    const res = await adminGet(token, '/v1/admin/sessions', { filter: { id: [broken.id, recovered.id] } });

    const byId = new Map((res.body as { id: string; lastTurnFailure: { turnId: string; code: string; status: string } | null }[]).map((s) => [s.id, s.lastTurnFailure]));
    expect(byId.get(broken.id)).toMatchObject({ turnId: bad.id, status: 'failed', code: 'provider-quota' });
    expect(byId.get(recovered.id)).toBeNull();
  });
});
