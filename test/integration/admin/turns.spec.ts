import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createTurn, createUser, login, openDb } from './support/admin-fixtures';

// See auth.spec.ts: the project-level testTimeout is not applied.
jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

type Row = { id: string; llmCalls: number; inputTokens: number; outcomeCodes: string[]; sessionId: string };

describe('GET /v1/admin/turns', () => {
  it("lists a session's turns with their usage, sorted and counted", async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'operator', t.tenant.id)).email);
    const session = await createSession(db, t);
    const base = Date.parse('2026-03-01T12:00:00Z');
    await createTurn(db, t, session.id, { llmCalls: 2, inputTokens: 300, createdAt: new Date(base) });
    await createTurn(db, t, session.id, { llmCalls: 5, inputTokens: 900, outcomeCodes: ['provider-timeout'], createdAt: new Date(base + 1000) });
    await createTurn(db, t, (await createSession(db, t)).id, { llmCalls: 1 });

    const res = await adminGet(token, '/v1/admin/turns', { filter: { sessionId: session.id }, sort: ['llmCalls', 'DESC'], range: [0, 9] });

    expect(res.status).toBe(200);
    expect((res.body as Row[]).map((r) => [r.llmCalls, r.inputTokens, r.outcomeCodes])).toEqual([
      [5, 900, ['provider-timeout']],
      [2, 300, []],
    ]);
    expect(Object.keys((res.body as Row[])[0])).not.toContain('trace');
    expect(res.headers.get('content-range')).toBe('turns 0-1/2');
  });

  it('filters by outcome code', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const session = await createSession(db, t);
    await createTurn(db, t, session.id, { llmCalls: 1, outcomeCodes: ['provider-auth'] });
    await createTurn(db, t, session.id, { llmCalls: 1, outcomeCodes: ['answered'] });

    const res = await adminGet(token, '/v1/admin/turns', { filter: { sessionId: session.id, outcomeCode: 'provider-auth' } });

    expect((res.body as Row[]).map((r) => r.outcomeCodes)).toEqual([['provider-auth']]);
  });

  it("answers 404 for another tenant's turn and lists none of its turns", async () => {
    const a = await createTenant(db);
    const b = await createTenant(db);
    const token = await login((await createUser(db, 'owner', a.tenant.id)).email);
    const bSession = await createSession(db, b);
    const bTurn = await createTurn(db, b, bSession.id, { llmCalls: 3 });

    expect((await adminGet(token, `/v1/admin/turns/${bTurn.id}`)).status).toBe(404);
    const list = await adminGet(token, '/v1/admin/turns', { filter: { sessionId: bSession.id } });
    expect(list.body).toEqual([]);
  });

  it.each([
    [{ filter: { outcomeCode: 'DROP TABLE' } }, 'invalid-filter'],
    [{ sort: ['trace', 'ASC'] }, 'invalid-sort'],
  ])('answers 400 for %j', async (query, code) => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const res = await adminGet(token, '/v1/admin/turns', query);
    expect(res.status).toBe(400);
    expect((res.body as { error: { code: string } }).error.code).toBe(code);
  });
});
