import type { PrismaClient, UserRole } from '@switchboard/db';
import { adminGet, createTenant, createUser, login, openDb } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

let db: PrismaClient;
const tokens = {} as Record<UserRole, string>;

beforeAll(async () => {
  db = openDb();
  const { tenant } = await createTenant(db);
  for (const role of ['platform_admin', 'owner', 'admin', 'operator', 'viewer'] as const) {
    const user = await createUser(db, role, role === 'platform_admin' ? null : tenant.id);
    tokens[role] = await login(user.email);
  }
});
afterAll(() => db.$disconnect());

describe('the admin role guard', () => {
  it('lets only platform admins list tenants', async () => {
    const res = await adminGet(tokens.platform_admin, '/v1/admin/tenants');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toMatch(/^tenants (\d+-\d+|\*)\/\d+$/);
  });

  it.each(['owner', 'admin', 'operator', 'viewer'] as const)('answers 403 forbidden to a %s listing tenants', async (role) => {
    const res = await adminGet(tokens[role], '/v1/admin/tenants');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: { code: 'forbidden', message: `Your role (${role}) may not do this; it needs one of: platform_admin.` },
    });
  });

  it.each(['platform_admin', 'owner', 'admin', 'operator', 'viewer'] as const)('lets a %s read sessions, messages, turns and stats', async (role) => {
    for (const path of ['/v1/admin/sessions', '/v1/admin/messages', '/v1/admin/turns', '/v1/admin/stats']) {
      const res = await adminGet(tokens[role], path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });
});
