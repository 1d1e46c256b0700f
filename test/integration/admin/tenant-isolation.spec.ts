import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTenant, createUser, login, openDb } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

// Tenant A's users against tenant B's rows: every read is "not found" or an empty list.
let db: PrismaClient;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let aToken: string;
let platformToken: string;
let bSession: { id: string };
let bMessageId: string;

beforeAll(async () => {
  db = openDb();
  a = await createTenant(db);
  b = await createTenant(db);
  aToken = await login((await createUser(db, 'owner', a.tenant.id)).email);
  platformToken = await login((await createUser(db, 'platform_admin', null)).email);
  await createSession(db, a, { texts: ['from A'] });
  bSession = await createSession(db, b, { texts: ['secret of B'] });
  bMessageId = (await db.message.findFirstOrThrow({ where: { sessionId: bSession.id } })).id;
});
afterAll(() => db.$disconnect());

describe('tenant isolation of the admin REST', () => {
  it("answers 404 for another tenant's session and message", async () => {
    for (const path of [`/v1/admin/sessions/${bSession.id}`, `/v1/admin/messages/${bMessageId}`]) {
      const res = await adminGet(aToken, path);
      expect({ path, status: res.status, code: (res.body as { error: { code: string } }).error.code }).toEqual({
        path,
        status: 404,
        code: 'not-found',
      });
    }
  });

  it("lists none of another tenant's rows, even when asked for them by id", async () => {
    const queries = [
      ['/v1/admin/sessions', { filter: { id: [bSession.id] } }],
      ['/v1/admin/sessions', { filter: { tenantId: b.tenant.id } }],
      ['/v1/admin/messages', { filter: { sessionId: bSession.id } }],
    ] as const;
    for (const [path, query] of queries) {
      const res = await adminGet(aToken, path, query);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('content-range')).toMatch(/\*\/0$/);
    }
    const all = await adminGet(aToken, '/v1/admin/messages', { range: [0, 99] });
    expect((all.body as { text: string }[]).map((m) => m.text)).not.toContain('secret of B');
  });

  it('lets a platform admin read every tenant', async () => {
    const res = await adminGet(platformToken, `/v1/admin/sessions/${bSession.id}`);
    expect(res.status).toBe(200);
    const list = await adminGet(platformToken, '/v1/admin/sessions', { filter: { tenantId: [a.tenant.id, b.tenant.id] } });
    expect(list.headers.get('content-range')).toBe('sessions 0-1/2');
  });
});
