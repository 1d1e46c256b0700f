import type { PrismaClient } from '@switchboard/db';
import { apiUrl, createSession, createUser, errorOf, login, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

// X-Tenant-Id: a platform admin picks one tenant (the console's tenant switcher) and lists,
// dashboards and creates act in it; any other role sending the header is refused.

jest.setTimeout(60_000);

let db: PrismaClient;
let a: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let b: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let platform: string;
let keyA: string;
let keyB: string;

async function call(token: string, path: string, tenant?: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(apiUrl(path), {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(tenant !== undefined && { 'x-tenant-id': tenant }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const keysOf = (body: unknown) => (body as { externalKey: string }[]).map((s) => s.externalKey);

beforeAll(async () => {
  db = openDb();
  a = await tenantWithUsers(db, ['owner'] as const);
  b = await tenantWithUsers(db, ['owner'] as const);
  keyA = unique('switch-a');
  keyB = unique('switch-b');
  await createSession(db, a, { externalKey: keyA, texts: ['oi'] });
  await createSession(db, b, { externalKey: keyB, texts: ['olá', 'oi!'] });
  platform = await login((await createUser(db, 'platform_admin', null)).email);
});
afterAll(() => db.$disconnect());

describe('X-Tenant-Id', () => {
  const sessions = (token: string, tenant?: string, q = 'switch-') =>
    call(token, `/v1/admin/sessions?filter=${encodeURIComponent(JSON.stringify({ q }))}&range=[0,99]`, tenant);

  it('shows a platform admin every tenant without it, and only the picked tenant with it', async () => {
    const all = await sessions(platform);
    expect(all.status).toBe(200);
    expect(keysOf(all.body)).toEqual(expect.arrayContaining([keyA, keyB]));

    const onlyB = await sessions(platform, b.tenant.id);
    expect(onlyB.status).toBe(200);
    expect(keysOf(onlyB.body)).toContain(keyB);
    expect(keysOf(onlyB.body)).not.toContain(keyA);
    expect((onlyB.body as { tenantId: string }[]).every((s) => s.tenantId === b.tenant.id)).toBe(true);

    // The dashboard numbers are the picked tenant's: one session, two messages.
    const stats = await call(platform, '/v1/admin/stats', b.tenant.id);
    expect(stats.body).toMatchObject({ sessions: 1, messages: 2 });
    // A row of another tenant reads as not found, as it does for that tenant's own users.
    const agentOfA = await call(platform, `/v1/admin/agents/${a.agent.id}`, b.tenant.id);
    expect(agentOfA.status).toBe(404);
  });

  it('puts what a platform admin creates in the picked tenant when the body names none', async () => {
    const created = await call(platform, '/v1/admin/agents', b.tenant.id, { method: 'POST', body: { name: unique('switched agent') } });
    expect(created.status).toBe(201);
    expect((created.body as { tenantId: string }).tenantId).toBe(b.tenant.id);
  });

  it('is refused from any other role (403), and checked for platform admins (400), changing nothing', async () => {
    const agentsOfBoth = () => db.agent.count({ where: { tenantId: { in: [a.tenant.id, b.tenant.id] } } });
    const before = await agentsOfBoth();
    const owner = await sessions(a.tokens.owner, b.tenant.id);
    expect(owner.status).toBe(403);
    expect(errorOf(owner.body).code).toBe('tenant-switch-forbidden');
    const ownOwn = await sessions(a.tokens.owner, a.tenant.id);
    expect(errorOf(ownOwn.body).code).toBe('tenant-switch-forbidden');

    const malformed = await sessions(platform, 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed.body).code).toBe('invalid-tenant-header');
    const unknown = await call(platform, '/v1/admin/agents', '00000000-0000-4000-8000-000000000000', { method: 'POST', body: { name: 'never' } });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body).code).toBe('unknown-tenant');
    expect(await agentsOfBoth()).toBe(before);
  });
});
