import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, errorOf, login, openDb, PASSWORD, tenantWithUsers, unique } from './support/admin-fixtures';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'platform_admin' | 'owner' | 'admin' | 'operator'>>>;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['platform_admin', 'owner', 'admin', 'operator'] as const);
});
afterAll(() => db.$disconnect());

const email = () => `${unique('u')}@example.test`;

describe('users', () => {
  it('lets an owner create, list, update, disable and delete users of the tenant; the new user can log in', async () => {
    const address = email();
    const created = await adminSend(world.tokens.owner, 'POST', '/v1/admin/users', { email: address.toUpperCase(), name: 'New', role: 'viewer', password: PASSWORD });
    expect(created.status).toBe(201);
    const user = created.body as { id: string; email: string; tenantId: string };
    expect(user).toMatchObject({ email: address, tenantId: world.tenant.id, role: 'viewer' });
    expect(created.text).not.toContain('passwordHash');
    await login(address);

    const list = await adminGet(world.tokens.owner, '/v1/admin/users', { filter: { role: 'viewer' }, sort: ['email', 'ASC'] });
    expect((list.body as { id: string }[]).map((u) => u.id)).toEqual([user.id]);
    expect(list.headers.get('content-range')).toBe('users 0-0/1');

    const promoted = await adminSend(world.tokens.owner, 'PUT', `/v1/admin/users/${user.id}`, { ...user, role: 'operator', name: 'Renamed' });
    expect(promoted.body).toMatchObject({ role: 'operator', name: 'Renamed' });
    const disabled = await adminSend(world.tokens.owner, 'PUT', `/v1/admin/users/${user.id}`, { disabled: true });
    expect((disabled.body as { disabledAt: string | null }).disabledAt).not.toBeNull();
    const refused = await fetch(new URL('/v1/admin/auth/login', process.env.TEST_API_URL), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: address, password: PASSWORD }),
    });
    expect(refused.status).toBe(401);

    expect((await adminSend(world.tokens.owner, 'DELETE', `/v1/admin/users/${user.id}`)).status).toBe(200);
    expect((await adminGet(world.tokens.owner, `/v1/admin/users/${user.id}`)).status).toBe(404);
    const audit = await db.auditLog.findMany({ where: { entityId: user.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['user.create', 'user.update', 'user.update', 'user.delete']);
    expect(JSON.stringify(audit)).not.toContain('$argon2');
  });

  it('keeps admins away from owners and platform admins, and everyone from changing themselves', async () => {
    const asAdmin = await adminSend(world.tokens.admin, 'POST', '/v1/admin/users', { email: email(), role: 'owner', password: PASSWORD });
    expect(asAdmin.status).toBe(403);
    expect(errorOf(asAdmin.body).code).toBe('role-not-assignable');
    const touchOwner = await adminSend(world.tokens.admin, 'PUT', `/v1/admin/users/${world.users.owner.id}`, { name: 'x' });
    expect(errorOf(touchOwner.body).code).toBe('role-not-assignable');
    const platform = await adminSend(world.tokens.owner, 'POST', '/v1/admin/users', { email: email(), role: 'platform_admin', password: PASSWORD });
    expect(platform.status).toBe(403);
    const self = await adminSend(world.tokens.owner, 'PUT', `/v1/admin/users/${world.users.owner.id}`, { role: 'viewer' });
    expect(errorOf(self.body).code).toBe('cannot-change-self');
    const selfDelete = await adminSend(world.tokens.owner, 'DELETE', `/v1/admin/users/${world.users.owner.id}`);
    expect(errorOf(selfDelete.body).code).toBe('cannot-change-self');
    const operator = await adminSend(world.tokens.operator, 'POST', '/v1/admin/users', { email: email(), role: 'viewer', password: PASSWORD });
    expect(operator.status).toBe(403);
  });

  it('refuses a short password, a duplicate email, and a platform admin creating a tenant user without tenantId', async () => {
    const short = await adminSend(world.tokens.owner, 'POST', '/v1/admin/users', { email: email(), role: 'viewer', password: 'short' });
    expect(short.status).toBe(400);
    const dup = await adminSend(world.tokens.owner, 'POST', '/v1/admin/users', { email: world.users.admin.email, role: 'viewer', password: PASSWORD });
    expect(dup.status).toBe(409);
    const noTenant = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/users', { email: email(), role: 'viewer', password: PASSWORD });
    expect(errorOf(noTenant.body).code).toBe('tenant-required');
    const ok = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/users', { email: email(), role: 'owner', password: PASSWORD, tenantId: world.tenant.id });
    expect(ok.status).toBe(201);
  });
});

describe('tenants', () => {
  it('lets a platform admin create, update and delete a tenant with everything in it', async () => {
    const slug = unique('t').toLowerCase();
    const created = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/tenants', { name: 'Acme', slug });
    expect(created.status).toBe(201);
    const tenant = created.body as { id: string };
    const dup = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/tenants', { name: 'Acme 2', slug });
    expect(dup.status).toBe(409);
    const bad = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/tenants', { name: 'Bad', slug: 'Not A Slug' });
    expect(bad.status).toBe(400);

    const updated = await adminSend(world.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${tenant.id}`, { ...tenant, name: 'Acme Inc' });
    expect(updated.body).toMatchObject({ name: 'Acme Inc', slug, queueWeight: 1 });
    // The queue weight (docs/fairness.md): 1..100, anything else refused with its field.
    const weighted = await adminSend(world.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${tenant.id}`, { queueWeight: 3 });
    expect(weighted.body).toMatchObject({ queueWeight: 3 });
    for (const queueWeight of [0, 101, 1.5, '3']) {
      const refused = await adminSend(world.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${tenant.id}`, { queueWeight });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('queueWeight');
    }
    expect((await db.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).queueWeight).toBe(3);

    const agent = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/agents', { tenantId: tenant.id, name: 'Bot' });
    expect(agent.status).toBe(201);
    const channel = await adminSend(world.tokens.platform_admin, 'POST', '/v1/admin/channels', { tenantId: tenant.id, agentId: (agent.body as { id: string }).id, name: 'Web' });
    expect(channel.status).toBe(201);

    expect((await adminSend(world.tokens.platform_admin, 'DELETE', `/v1/admin/tenants/${tenant.id}`)).status).toBe(200);
    expect(await db.agent.count({ where: { tenantId: tenant.id } })).toBe(0);
    expect((await adminGet(world.tokens.platform_admin, `/v1/admin/tenants/${tenant.id}`)).status).toBe(404);
    expect(await db.auditLog.count({ where: { entityId: tenant.id, action: { in: ['tenant.create', 'tenant.update', 'tenant.delete'] } } })).toBe(4);
  });

  it('refuses tenant changes to an owner', async () => {
    const res = await adminSend(world.tokens.owner, 'POST', '/v1/admin/tenants', { name: 'x', slug: unique('x').toLowerCase() });
    expect(res.status).toBe(403);
  });
});
