import type { PrismaClient } from '@switchboard/db';
import { adminSend, apiUrl, createUser, login, openDb } from './support/admin-fixtures';
import { createAdminWorld, tenantSnapshot, type AdminWorld } from './support/admin-world';
import { ROUTES, type RouteCase } from './support/route-catalog';

jest.setTimeout(120_000);

// Tenant A's owner (the strongest tenant role) against tenant B's ids, on every admin route:
// a route naming B's row answers 404 (its existence is not revealed), a body naming B's row is
// an unknown reference, a list shows none of B's rows, and B's rows stay exactly as they were.

let db: PrismaClient;
let a: AdminWorld;
let b: AdminWorld;
let ownerA: string;

beforeAll(async () => {
  db = openDb();
  [a, b] = await Promise.all([createAdminWorld(db), createAdminWorld(db)]);
  ownerA = await login((await createUser(db, 'owner', a.tenant)).email);
});
afterAll(() => db.$disconnect());

type Expect = { status: number; code: string } | 'list';

function expectation(c: RouteCase): Expect {
  if (c.route.startsWith('/v1/admin/tenants')) return { status: 403, code: 'forbidden' }; // platform admins only
  // Prices: only platform admins set them; list prices are platform-wide, every tenant reads them.
  if (/model-prices/.test(c.route) && c.method !== 'GET') return { status: 403, code: 'forbidden' };
  if (c.route === '/v1/admin/model-prices/:id') return 'list';
  if (c.route.includes(':id') || c.route === '/v1/admin/flow-schema') return { status: 404, code: 'not-found' };
  if (c.route === '/v1/admin/usage/quota') return 'list'; // A's own quota: must not mention B
  if (c.method === 'GET') return 'list';
  if (c.route === '/v1/admin/channels') return { status: 422, code: 'unknown-agent' };
  if (c.route === '/v1/admin/api-keys') return { status: 422, code: 'unknown-channel' };
  return { status: 400, code: 'invalid-tenant' };
}

/** The body aimed at B: its row ids, or its tenant for creates that name no row. */
function bodyAgainstB(c: RouteCase): unknown {
  const body = c.body?.(b);
  if (c.method === 'POST' && !c.route.includes(':id') && !['/v1/admin/channels', '/v1/admin/api-keys'].includes(c.route)) {
    return { ...(body as object), tenantId: b.tenant };
  }
  return body;
}

describe('the cross-tenant matrix', () => {
  it("never lets tenant A read or change tenant B's rows through any admin route", async () => {
    const before = await tenantSnapshot(db, b.tenant);
    // B's list price is no secret of B's: list prices belong to the platform.
    const bIds = Object.values({ ...b, modelPrice: undefined }).filter((id): id is string => id !== undefined);
    const results: string[] = [];
    for (const c of ROUTES) {
      const expected = expectation(c);
      const answer =
        c.method === 'GET'
          ? await fetch(apiUrl(c.url(b)), { headers: { authorization: `Bearer ${ownerA}` } }).then(async (r) => ({ status: r.status, text: await r.text() }))
          : await adminSend(ownerA, c.method, c.url(b), bodyAgainstB(c)).then((r) => ({ status: r.status, text: r.text }));
      const label = `${c.method} ${c.route}`;
      if (expected === 'list') {
        expect({ label, status: answer.status }).toEqual({ label, status: 200 });
        const leaked = bIds.filter((id) => answer.text.includes(id));
        expect({ label, leaked }).toEqual({ label, leaked: [] });
      } else {
        const code = (JSON.parse(answer.text) as { error?: { code: string } }).error?.code;
        expect({ label, status: answer.status, code }).toEqual({ label, ...expected });
      }
      results.push(label);
    }
    expect(results).toHaveLength(ROUTES.length);
    expect(await tenantSnapshot(db, b.tenant)).toBe(before);
  });

  it("does not list B's rows even when asked for them by id or tenant", async () => {
    const lists: [string, Record<string, unknown>][] = [
      ['/v1/admin/agents', { id: [b.agent] }],
      ['/v1/admin/agents', { tenantId: b.tenant }],
      ['/v1/admin/channels', { agentId: b.agent }],
      ['/v1/admin/api-keys', { channelId: b.channel }],
      ['/v1/admin/provider-credentials', { id: b.credential }],
      ['/v1/admin/http-tools', { id: b.httpTool }],
      ['/v1/admin/tools', { id: [b.httpTool] }],
      ['/v1/admin/users', { id: b.user }],
      ['/v1/admin/usage', { tenantId: b.tenant }],
      ['/v1/admin/audit-log', { tenantId: b.tenant }],
    ];
    for (const [path, filter] of lists) {
      const url = new URL(apiUrl(path));
      url.searchParams.set('filter', JSON.stringify(filter));
      const res = await fetch(url, { headers: { authorization: `Bearer ${ownerA}` } });
      expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status: 200, body: [] });
      expect(res.headers.get('content-range')).toMatch(/ \*\/0$/);
    }
  });
});
