import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createUser, login, openDb } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

type Row = { id: string; seq: string; sessionId: string; direction: string; text: string };

describe('GET /v1/admin/messages', () => {
  it("answers a session's messages in arrival order, with the count", async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const session = await createSession(db, t, { texts: ['Oi', 'Olá! Como posso ajudar?', 'Quero um quarto'] });
    await createSession(db, t, { texts: ['another conversation'] });

    const res = await adminGet(token, '/v1/admin/messages', { filter: { sessionId: session.id }, sort: ['seq', 'ASC'], range: [0, 24] });

    expect(res.status).toBe(200);
    const rows = res.body as Row[];
    expect(rows.map((m) => [m.direction, m.text])).toEqual([
      ['inbound', 'Oi'],
      ['outbound', 'Olá! Como posso ajudar?'],
      ['inbound', 'Quero um quarto'],
    ]);
    expect(rows.every((m) => m.sessionId === session.id && /^\d+$/.test(m.seq))).toBe(true);
    expect(BigInt(rows[0].seq)).toBeLessThan(BigInt(rows[1].seq));
    expect(res.headers.get('content-range')).toBe('messages 0-2/3');
  });

  it('sorts by seq ascending when no sort is given', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'operator', t.tenant.id)).email);
    const session = await createSession(db, t, { texts: ['1', '2', '3', '4'] });

    const res = await adminGet(token, '/v1/admin/messages', { filter: { sessionId: session.id } });

    expect((res.body as Row[]).map((m) => m.text)).toEqual(['1', '2', '3', '4']);
  });

  it('filters by direction', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const session = await createSession(db, t, { texts: ['in 1', 'out 1', 'in 2'] });

    const res = await adminGet(token, '/v1/admin/messages', { filter: { sessionId: session.id, direction: 'outbound' } });

    expect((res.body as Row[]).map((m) => m.text)).toEqual(['out 1']);
  });

  it('answers 400 invalid-filter for a sessionId that is not a UUID, and invalid-sort for text', async () => {
    const t = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const bad = await adminGet(token, '/v1/admin/messages', { filter: { sessionId: 'x' } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string } }).error.code).toBe('invalid-filter');
    const badSort = await adminGet(token, '/v1/admin/messages', { sort: ['text', 'ASC'] });
    expect((badSort.body as { error: { code: string } }).error.code).toBe('invalid-sort');
  });
});

describe('GET /v1/admin/stats', () => {
  it("counts the tenant's sessions and messages only", async () => {
    const t = await createTenant(db);
    const other = await createTenant(db);
    const token = await login((await createUser(db, 'owner', t.tenant.id)).email);
    await createSession(db, t, { texts: ['a', 'b'] });
    await createSession(db, t, { status: 'handed_off', texts: ['c'] });
    await createSession(db, other, { texts: ['not ours'] });

    const res = await adminGet(token, '/v1/admin/stats');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sessions: 2, activeSessions: 1, messages: 3, queuedMessages: 0, turns: 0, llmCalls: 0 });
  });
});
