import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createUser, login, openDb, unique } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

// One tenant with five sessions created a minute apart, so sort and range have a known answer.
let db: PrismaClient;
let token: string;
let sessions: { id: string; externalKey: string }[];
let tenant: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  db = openDb();
  tenant = await createTenant(db);
  const owner = await createUser(db, 'owner', tenant.tenant.id);
  token = await login(owner.email);
  const base = Date.parse('2026-01-01T10:00:00Z');
  sessions = [];
  for (let i = 0; i < 5; i++) {
    sessions.push(
      await createSession(db, tenant, {
        externalKey: `${unique('key')}-${i}`,
        status: i === 4 ? 'handed_off' : 'active',
        createdAt: new Date(base + i * 60_000),
      }),
    );
  }
});
afterAll(() => db.$disconnect());

type Row = { id: string; externalKey: string; status: string };

describe('GET /v1/admin/sessions', () => {
  it('sorts, pages and counts in the Content-Range header', async () => {
    const res = await adminGet(token, '/v1/admin/sessions', { sort: ['createdAt', 'DESC'], range: [0, 1], filter: {} });

    expect(res.status).toBe(200);
    expect((res.body as Row[]).map((s) => s.id)).toEqual([sessions[4].id, sessions[3].id]);
    expect(res.headers.get('content-range')).toBe('sessions 0-1/5');
  });

  it('answers the next page from the range', async () => {
    const res = await adminGet(token, '/v1/admin/sessions', { sort: ['createdAt', 'ASC'], range: [2, 3] });
    expect((res.body as Row[]).map((s) => s.id)).toEqual([sessions[2].id, sessions[3].id]);
    expect(res.headers.get('content-range')).toBe('sessions 2-3/5');
  });

  it('answers an empty page past the end with the total', async () => {
    const res = await adminGet(token, '/v1/admin/sessions', { range: [10, 19] });
    expect(res.body).toEqual([]);
    expect(res.headers.get('content-range')).toBe('sessions */5');
  });

  it('filters by status', async () => {
    const res = await adminGet(token, '/v1/admin/sessions', { filter: { status: 'handed_off' } });
    expect((res.body as Row[]).map((s) => s.id)).toEqual([sessions[4].id]);
    expect(res.headers.get('content-range')).toBe('sessions 0-0/1');
  });

  it('filters by a list of ids, as react-admin getMany asks', async () => {
    const ids = [sessions[0].id, sessions[2].id];
    const res = await adminGet(token, '/v1/admin/sessions', { filter: { id: ids } });
    expect((res.body as Row[]).map((s) => s.id).sort()).toEqual([...ids].sort());
  });

  it('searches the session key with q', async () => {
    const res = await adminGet(token, '/v1/admin/sessions', { filter: { q: sessions[1].externalKey.toUpperCase() } });
    expect((res.body as Row[]).map((s) => s.id)).toEqual([sessions[1].id]);
  });

  it('answers one session by id, without the engine state', async () => {
    const res = await adminGet(token, `/v1/admin/sessions/${sessions[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sessions[0].id, externalKey: sessions[0].externalKey, status: 'active', tenantId: tenant.tenant.id });
    expect(res.body).not.toHaveProperty('state');
  });

  it('answers 404 not-found for an unknown id and for an id that is not a UUID', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await adminGet(token, `/v1/admin/sessions/${id}`);
      expect(res.status).toBe(404);
      expect((res.body as { error: { code: string } }).error.code).toBe('not-found');
    }
  });
});

describe('bad list parameters', () => {
  it.each([
    ['a sort field outside the allow-list', { sort: ['state', 'ASC'] }, 'invalid-sort'],
    ['a sort order other than ASC or DESC', { sort: ['createdAt', 'UP'] }, 'invalid-sort'],
    ['a sort that is not a pair', { sort: ['createdAt'] }, 'invalid-sort'],
    ['a sort that is not JSON', { sort: 'createdAt DESC' }, 'invalid-sort'],
    ['a page over 100 rows', { range: [0, 100] }, 'invalid-range'],
    ['a backwards range', { range: [10, 5] }, 'invalid-range'],
    ['a negative range', { range: [-1, 5] }, 'invalid-range'],
    ['a range of non-integers', { range: [0.5, 2] }, 'invalid-range'],
    ['a filter key outside the allow-list', { filter: { passwordHash: 'x' } }, 'invalid-filter'],
    ['a filter that is not an object', { filter: ['status'] }, 'invalid-filter'],
    ['a filter that is not JSON', { filter: '{status:active}' }, 'invalid-filter'],
    ['a status that does not exist', { filter: { status: 'closed' } }, 'invalid-filter'],
    ['an id that is not a UUID', { filter: { id: 'abc' } }, 'invalid-filter'],
    ['an unknown query parameter', { page: '2' }, 'unknown-query-parameter'],
  ])('answers 400 for %s', async (_, query, code) => {
    const res = await adminGet(token, '/v1/admin/sessions', query);
    expect(res.status).toBe(400);
    expect((res.body as { error: { code: string; message: string } }).error).toMatchObject({ code, message: expect.any(String) });
  });
});
