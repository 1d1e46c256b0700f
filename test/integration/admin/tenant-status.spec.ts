import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { createWidgetChannel } from '../../support/widget';
import { adminGet, adminSend, apiUrl, createTenant, createUser, errorOf, login, openDb, PASSWORD, unique } from './support/admin-fixtures';

// Suspending a tenant (issue 22 §6, docs/security.md): every door of the tenant closes with 403
// tenant-suspended and stores nothing; reactivating opens them all again. The platform admin
// acts through this suite's API, whose status cache forgets the tenant at once.
jest.setTimeout(60_000);

let db: PrismaClient;
let platform: string;
beforeAll(async () => {
  db = openDb();
  platform = await login((await createUser(db, 'platform_admin', null)).email);
});
afterAll(() => db.$disconnect());

const ORIGIN = 'https://shop.example';

async function suspendableTenant() {
  const t = await createTenant(db);
  const key = generateApiKey();
  await db.apiKey.create({ data: { tenantId: t.tenant.id, channelId: t.channel.id, prefix: key.prefix, keyHash: key.hash } });
  const widget = await createWidgetChannel(db, t.tenant.id, t.agent.id, { allowedOrigins: [ORIGIN] });
  const owner = await createUser(db, 'owner', t.tenant.id);
  return { ...t, key: key.key, widget, owner };
}

const setStatus = (tenantId: string, status: string) => adminSend(platform, 'PUT', `/v1/admin/tenants/${tenantId}`, { status });
const postMessage = (key: string, body: unknown) =>
  fetch(apiUrl('/v1/messages'), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const widgetGrant = (publicId: string) =>
  fetch(apiUrl(`/v1/widget/${publicId}/sessions`), { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: '{}' });
const widgetMessage = (publicId: string, token: string, id: string) =>
  fetch(apiUrl(`/v1/widget/${publicId}/messages`), {
    method: 'POST',
    headers: { origin: ORIGIN, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, text: 'hello' }),
  });
const loginAnswer = (email: string) =>
  fetch(apiUrl('/v1/admin/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
const codeOf = async (res: Response) => [res.status, errorOf(await res.json()).code];

describe('tenant status', () => {
  it('lets a platform admin suspend and reactivate a tenant, validated and audited, and filter the list by status', async () => {
    const t = await suspendableTenant();
    const listed = await adminGet(platform, '/v1/admin/tenants', { filter: { id: t.tenant.id } });
    expect(listed.body).toEqual([expect.objectContaining({ id: t.tenant.id, status: 'active' })]);

    const bad = await setStatus(t.tenant.id, 'paused');
    expect([bad.status, errorOf(bad.body).code]).toEqual([400, 'validation-failed']);

    const suspended = await setStatus(t.tenant.id, 'suspended');
    expect([suspended.status, (suspended.body as { status: string }).status]).toEqual([200, 'suspended']);
    const bySuspended = await adminGet(platform, '/v1/admin/tenants', { filter: { status: 'suspended', id: t.tenant.id } });
    expect((bySuspended.body as { id: string }[]).map((r) => r.id)).toEqual([t.tenant.id]);
    expect((await adminGet(platform, '/v1/admin/tenants', { filter: { status: 'gone' } })).status).toBe(400);

    await setStatus(t.tenant.id, 'active');
    const audit = await db.auditLog.findMany({ where: { entityId: t.tenant.id, action: { in: ['tenant.suspend', 'tenant.reactivate'] } }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.action, a.after])).toEqual([
      ['tenant.suspend', { status: 'suspended' }],
      ['tenant.reactivate', { status: 'active' }],
    ]);

    // A tenant can be created suspended; only platform admins set a status.
    const slug = unique('t');
    const created = await adminSend(platform, 'POST', '/v1/admin/tenants', { name: 'Dormant', slug, status: 'suspended' });
    expect([created.status, (created.body as { status: string }).status]).toEqual([201, 'suspended']);
    const ownerToken = await login(t.owner.email);
    expect((await adminSend(ownerToken, 'PUT', `/v1/admin/tenants/${t.tenant.id}`, { status: 'suspended' })).status).toBe(403);
  });

  it("refuses a suspended tenant's channel messages, events and widget with 403 tenant-suspended and stores nothing; reactivated, all are accepted", async () => {
    const t = await suspendableTenant();
    const grant = await widgetGrant(t.widget.publicId);
    const { token } = (await grant.json()) as { token: string };

    await setStatus(t.tenant.id, 'suspended');
    expect(await codeOf(await postMessage(t.key, { session: unique('s'), text: 'hi', id: 'm-1' }))).toEqual([403, 'tenant-suspended']);
    const event = await fetch(apiUrl('/v1/events'), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: unique('s'), event: 'paid', key: 'e-1' }),
    });
    expect(await codeOf(event)).toEqual([403, 'tenant-suspended']);
    expect(await codeOf(await widgetGrant(t.widget.publicId))).toEqual([403, 'tenant-suspended']);
    expect(await codeOf(await widgetMessage(t.widget.publicId, token, 'widget-msg-0001'))).toEqual([403, 'tenant-suspended']);
    expect(await db.message.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db.session.count({ where: { tenantId: t.tenant.id } })).toBe(0);

    await setStatus(t.tenant.id, 'active');
    expect((await postMessage(t.key, { session: unique('s'), text: 'hi', id: 'm-1' })).status).toBe(202);
    expect((await widgetGrant(t.widget.publicId)).status).toBe(200);
    expect((await widgetMessage(t.widget.publicId, token, 'widget-msg-0002')).status).toBe(202);
    expect(await db.message.count({ where: { tenantId: t.tenant.id } })).toBe(2);
  });

  it("locks a suspended tenant's console users out (login, API, refresh) with 403 tenant-suspended; reactivated, the same login goes on", async () => {
    const t = await suspendableTenant();
    const before = await loginAnswer(t.owner.email);
    const { accessToken } = (await before.json()) as { accessToken: string };
    const refreshCookie = before.headers.getSetCookie().find((c) => c.startsWith('sb_refresh='))!.split(';')[0];

    await setStatus(t.tenant.id, 'suspended');
    expect(await codeOf(await loginAnswer(t.owner.email))).toEqual([403, 'tenant-suspended']);
    // A wrong password still answers as any wrong password: the suspension is told only to the account's owner.
    const wrong = await fetch(apiUrl('/v1/admin/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: t.owner.email, password: 'not it' }) });
    expect(wrong.status).toBe(401);
    const read = await adminGet(accessToken, '/v1/admin/agents');
    expect([read.status, errorOf(read.body).code]).toEqual([403, 'tenant-suspended']);
    const refresh = await fetch(apiUrl('/v1/admin/auth/refresh'), { method: 'POST', headers: { cookie: refreshCookie } });
    expect(await codeOf(refresh)).toEqual([403, 'tenant-suspended']);
    // The platform admin still reads the tenant's data.
    expect((await adminGet(platform, '/v1/admin/agents', { filter: { tenantId: t.tenant.id } })).status).toBe(200);

    await setStatus(t.tenant.id, 'active');
    expect((await adminGet(accessToken, '/v1/admin/agents')).status).toBe(200);
    expect((await fetch(apiUrl('/v1/admin/auth/refresh'), { method: 'POST', headers: { cookie: refreshCookie } })).status).toBe(200);
    expect((await loginAnswer(t.owner.email)).status).toBe(200);
  });
});
