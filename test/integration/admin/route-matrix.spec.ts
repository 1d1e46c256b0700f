import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { PrismaClient, UserRole } from '@switchboard/db';
import { AdminModule } from '../../../apps/api/src/admin/admin.module';
import { PUBLIC_KEY, ROLES_KEY } from '../../../apps/api/src/admin/auth/roles.decorator';
import { adminSend, apiUrl, createUser, login, openDb } from './support/admin-fixtures';
import { createAdminWorld, tenantSnapshot, type AdminWorld } from './support/admin-world';
import { NEVER_CREATED_TENANT_SLUG, ROUTES } from './support/route-catalog';

jest.setTimeout(120_000);

const ROLES: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator', 'viewer'];

/** `METHOD /path` → declared roles, read from the controllers of AdminModule. */
function declaredRoutes(): Map<string, UserRole[] | 'public'> {
  const out = new Map<string, UserRole[] | 'public'>();
  const controllers = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, AdminModule) as (new (...args: never[]) => object)[];
  for (const controller of controllers) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const path = [base, Reflect.getMetadata(PATH_METADATA, handler) as string].filter((p) => p && p !== '/').join('/');
      const roles = Reflect.getMetadata(PUBLIC_KEY, handler) === true ? 'public' : ((Reflect.getMetadata(ROLES_KEY, handler) as UserRole[] | undefined) ?? []);
      out.set(`${method} /${path}`, roles);
    }
  }
  return out;
}

let db: PrismaClient;
let world: AdminWorld;
const tokens = {} as Record<UserRole, string>;

beforeAll(async () => {
  db = openDb();
  world = await createAdminWorld(db);
  for (const role of ROLES) {
    tokens[role] = await login((await createUser(db, role, role === 'platform_admin' ? null : world.tenant)).email);
  }
});
afterAll(() => db.$disconnect());

describe('the admin role matrix', () => {
  it('covers every admin route, with the roles the controllers declare', () => {
    const declared = declaredRoutes();
    // Public: login takes a password, refresh and logout take the refresh cookie (auth-sessions.spec.ts).
    for (const route of ['POST /v1/admin/auth/login', 'POST /v1/admin/auth/refresh', 'POST /v1/admin/auth/logout']) {
      expect([route, declared.get(route)]).toEqual([route, 'public']);
      declared.delete(route);
    }
    const catalog = new Map(ROUTES.map((c) => [`${c.method} ${c.route}`, [...c.roles].sort()]));
    expect(new Map([...declared].map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]))).toEqual(catalog);
  });

  it('answers 403 forbidden to every role a route does not allow, and changes nothing', async () => {
    const before = await tenantSnapshot(db, world.tenant);
    const denied: string[] = [];
    for (const c of ROUTES) {
      for (const role of ROLES.filter((r) => !c.roles.includes(r))) {
        const res = c.method === 'GET' ? await fetch(apiUrl(c.url(world)), { headers: { authorization: `Bearer ${tokens[role]}` } }) : await adminSend(tokens[role], c.method, c.url(world), c.body?.(world));
        const code = c.method === 'GET' ? ((await (res as Response).json()) as { error?: { code: string } }).error?.code : (res as { body: { error?: { code: string } } }).body.error?.code;
        denied.push(`${role} ${c.method} ${c.route} → ${res.status} ${code}`);
        expect(`${role} ${c.method} ${c.route} → ${res.status} ${code}`).toBe(`${role} ${c.method} ${c.route} → 403 forbidden`);
      }
    }
    expect(denied.length).toBeGreaterThan(50);
    expect(await tenantSnapshot(db, world.tenant)).toBe(before);
    // The only tenant a denied call could create is the catalog's (other suites create tenants meanwhile).
    expect(await db.tenant.count({ where: { slug: NEVER_CREATED_TENANT_SLUG } })).toBe(0);
  });

  it('answers 401 to a request without a token on every route', async () => {
    for (const c of ROUTES) {
      const res = await fetch(apiUrl(c.url(world)), { method: c.method });
      expect(`${c.method} ${c.route} → ${res.status}`).toBe(`${c.method} ${c.route} → 401`);
    }
  });
});
