import { ROUTES } from '../integration/admin/support/route-catalog';
import { declaredRoutes, startInProcessApi, type InProcessApi } from './support/in-process-api';

jest.setTimeout(120_000);

// The route matrices (route-matrix.spec.ts: roles; tenant-matrix.spec.ts: another tenant's ids)
// walk a hand-written catalog. This checks the catalog against the routes the running app
// really serves, read from Nest's module container, so a new route cannot slip past them.

let api: InProcessApi;
beforeAll(async () => {
  api = await startInProcessApi();
});
afterAll(() => api?.close());

// Routes that are meant to be reachable without any credential.
// refresh and logout carry their own credential: the HttpOnly refresh cookie. A widget's sessions
// route is the page's way in: its public id and the page's Origin decide (widget-visitor-scope.spec.ts).
const OPEN = [
  'GET /health/live',
  'GET /health/ready',
  'POST /v1/admin/auth/login',
  'POST /v1/admin/auth/refresh',
  'POST /v1/admin/auth/logout',
  'POST /v1/widget/:publicId/sessions',
  // Platform webhooks (docs/channels.md): the credential is the platform's signature or secret,
  // checked against the channel's (401 invalid-signature; test/integration/channels).
  'POST /v1/channels/:kind/:channelId',
  'GET /v1/channels/whatsapp/:channelId',
];

describe('route coverage', () => {
  it('finds every declared route in the Fastify router (the list is the one requests go through)', () => {
    const routes = declaredRoutes(api.app);
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !api.fastify.hasRoute({ method: r.method, url: r.path }));
    expect(missing).toEqual([]);
  });

  it('has every admin route of the app in the catalog the role and tenant matrices walk', () => {
    const catalog = new Set(ROUTES.map((c) => `${c.method} ${c.route}`));
    const admin = declaredRoutes(api.app)
      .filter((r) => r.path.startsWith('/v1/admin'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((k) => !OPEN.includes(k));
    expect(admin.filter((k) => !catalog.has(k))).toEqual([]);
    expect([...catalog].filter((k) => !admin.includes(k))).toEqual([]);
  });

  it('refuses every route but the open ones without a credential (401 in the error shape)', async () => {
    const answers: string[] = [];
    for (const r of declaredRoutes(api.app)) {
      const key = `${r.method} ${r.path}`;
      if (OPEN.includes(key)) continue;
      const url = r.path.replace(/:\w+/g, '00000000-0000-0000-0000-000000000000');
      const res = await api.inject({ method: r.method, url, headers: { 'content-type': 'application/json' }, payload: r.method === 'GET' ? undefined : '{}' });
      const code = res.body.startsWith('{') ? (JSON.parse(res.body) as { error?: { code?: string } }).error?.code : undefined;
      answers.push(`${key} → ${res.statusCode} ${typeof code}`);
    }
    expect(answers.filter((a) => !a.endsWith('→ 401 string'))).toEqual([]);
  });
});
