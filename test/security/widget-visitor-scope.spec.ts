import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { createAdminWorld, type AdminWorld } from '../integration/admin/support/admin-world';
import { createUser, openDb, PASSWORD } from '../integration/admin/support/admin-fixtures';
import { ROUTES } from '../integration/admin/support/route-catalog';
import { createWidgetChannel, ensureWidgetBuilt, type WidgetManifest } from '../support/widget';
import { declaredRoutes, loginInProcess, startInProcessApi, type InProcessApi } from './support/in-process-api';

// A visitor token reads and writes only its own conversation: not another visitor's, not another
// widget's (of the same tenant or another), nothing of the channel API or the admin API. Plus the
// widget's other boundaries: origins, CORS, rate limits, and the served files.

jest.setTimeout(120_000);

const SHOP = 'https://shop.example';
let api: InProcessApi;
let db: PrismaClient;
let a: AdminWorld;
let b: AdminWorld;
let widgetA: { id: string; publicId: string };
let otherWidgetA: { id: string; publicId: string };
let widgetB: { id: string; publicId: string };
let manifest: WidgetManifest;

beforeAll(async () => {
  manifest = ensureWidgetBuilt();
  db = openDb();
  [a, b] = await Promise.all([createAdminWorld(db), createAdminWorld(db)]);
  widgetA = await createWidgetChannel(db, a.tenant, a.agent, { allowedOrigins: [SHOP], title: 'Shop', conversationDays: 7 });
  otherWidgetA = await createWidgetChannel(db, a.tenant, a.agent, { allowedOrigins: [SHOP] });
  widgetB = await createWidgetChannel(db, b.tenant, b.agent, { allowedOrigins: [SHOP] });
  api = await startInProcessApi({ WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR: '4', WIDGET_MESSAGES_PER_VISITOR_PER_MINUTE: '5' });
});
afterAll(async () => {
  await api?.close();
  await db?.$disconnect();
});

let address = 0;
/** A visitor token from a fresh address (the per-address limit is tested on its own). */
async function visitor(publicId: string, body: unknown = {}): Promise<{ token: string; continued: boolean }> {
  const res = await api.inject({ method: 'POST', url: `/v1/widget/${publicId}/sessions`, headers: { origin: SHOP, 'x-forwarded-for': `198.51.100.${++address}` }, payload: body as object });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const as = (token: string, origin = SHOP) => ({ authorization: `Bearer ${token}`, origin });

async function send(publicId: string, token: string, id: string, text: string) {
  return api.inject({ method: 'POST', url: `/v1/widget/${publicId}/messages`, headers: as(token), payload: { id, text } });
}

async function history(publicId: string, token: string) {
  const res = await api.inject({ method: 'GET', url: `/v1/widget/${publicId}/messages`, headers: as(token) });
  return { status: res.statusCode, body: res.json() as { session: { status: string } | null; messages: { text: string; clientId: string | null }[] } };
}

describe('a visitor token', () => {
  it('reads and writes its own conversation only: another visitor with the same message id gets a message of their own', async () => {
    const one = await visitor(widgetA.publicId);
    const two = await visitor(widgetA.publicId);
    expect((await send(widgetA.publicId, one.token, 'same-id-0001', 'I am visitor one')).statusCode).toBe(202);
    const sent = await send(widgetA.publicId, two.token, 'same-id-0001', 'I am visitor two');
    expect(sent.statusCode).toBe(202);

    expect((await history(widgetA.publicId, one.token)).body.messages.map((m) => [m.text, m.clientId])).toEqual([['I am visitor one', 'same-id-0001']]);
    expect((await history(widgetA.publicId, two.token)).body.messages.map((m) => [m.text, m.clientId])).toEqual([['I am visitor two', 'same-id-0001']]);
    const sessions = await db.session.findMany({ where: { channelId: widgetA.id }, include: { messages: true } });
    expect(sessions.filter((s) => s.messages.length > 0)).toHaveLength(2);
  });

  it('stores a retried send once', async () => {
    const v = await visitor(widgetA.publicId);
    const first = await send(widgetA.publicId, v.token, 'retry-id-0001', 'hello once');
    const again = await send(widgetA.publicId, v.token, 'retry-id-0001', 'hello once');
    // Same message, same session. Its status may have moved on: another suite's worker shares
    // this queue and can answer it between the two sends, and a retry says how it ended.
    const { status: firstStatus, ...firstIds } = first.json() as { status: string };
    const { status: againStatus, ...againIds } = again.json() as { status: string };
    expect(againIds).toEqual(firstIds);
    expect(firstStatus).toBe('queued');
    expect(['queued', 'answered', 'failed']).toContain(againStatus);
    expect(await db.message.count({ where: { channelId: widgetA.id, text: 'hello once' } })).toBe(1);
  });

  it('is refused by every other widget, of its tenant or another (401 invalid-visitor-token)', async () => {
    const v = await visitor(widgetA.publicId);
    await send(widgetA.publicId, v.token, 'scope-id-0001', 'mine');
    for (const other of [otherWidgetA.publicId, widgetB.publicId, 'wg_doesnotexist00000000']) {
      for (const [method, path, payload] of [
        ['GET', 'messages', undefined],
        ['POST', 'messages', { id: 'scope-id-0002', text: 'intruder' }],
        ['POST', 'identify', { name: 'intruder' }],
        ['GET', 'stream', undefined],
      ] as const) {
        const res = await api.inject({ method, url: `/v1/widget/${other}/${path}`, headers: as(v.token), payload });
        expect([path, res.statusCode, res.json().error.code]).toEqual([path, 401, 'invalid-visitor-token']);
      }
    }
    expect(await db.message.count({ where: { text: 'intruder' } })).toBe(0);
    expect(await db.session.count({ where: { channelId: { in: [otherWidgetA.id] }, visitorContext: { not: { equals: null } } } })).toBe(0);
  });

  it('opens no admin route and no channel API route (401 on every one)', async () => {
    const v = await visitor(widgetA.publicId);
    await send(widgetA.publicId, v.token, 'admin-id-0001', 'let me in');
    const session = await db.session.findFirstOrThrow({ where: { channelId: widgetA.id, messages: { some: { text: 'let me in' } } } });
    const answers: string[] = [];
    for (const r of ROUTES) {
      const res = await api.inject({ method: r.method, url: r.url(a), headers: as(v.token), payload: r.body ? (r.body(a) as object) : undefined });
      answers.push(`${r.method} ${r.route} → ${res.statusCode}`);
    }
    expect(answers.filter((x) => !x.endsWith('→ 401'))).toEqual([]);
    for (const [method, url] of [
      ['POST', '/v1/messages'],
      ['GET', `/v1/sessions/${session.id}/messages`],
      ['GET', `/v1/sessions/${session.id}/stream`],
      ['POST', '/v1/events'],
      ['POST', `/v1/sessions/${session.id}/start`],
    ] as const) {
      const res = await api.inject({ method, url, headers: as(v.token), payload: method === 'POST' ? { session: session.externalKey, text: 'x' } : undefined });
      expect([url, res.statusCode, res.json().error.code]).toEqual([url, 401, 'invalid-api-key']);
    }
  });

  it('is not made from a console token, a tampered token or a channel API key', async () => {
    const owner = await createUser(db, 'owner', a.tenant);
    const consoleToken = await loginInProcess(api, owner.email, PASSWORD);
    const key = generateApiKey();
    await db.apiKey.create({ data: { tenantId: a.tenant, channelId: widgetA.id, prefix: key.prefix, keyHash: key.hash } });
    const v = await visitor(widgetA.publicId);
    const [header, payload, signature] = v.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url'), signature].join('.');
    const none = [Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'), payload, ''].join('.');
    for (const token of [consoleToken, tampered, none, key.key]) {
      const res = await api.inject({ method: 'GET', url: `/v1/widget/${widgetA.publicId}/messages`, headers: as(token) });
      expect([res.statusCode, res.json().error.code]).toEqual([401, 'invalid-visitor-token']);
    }
    const missing = await api.inject({ method: 'GET', url: `/v1/widget/${widgetA.publicId}/messages`, headers: { origin: SHOP } });
    expect([missing.statusCode, missing.json().error.code]).toEqual([401, 'missing-visitor-token']);
  });

  it('continues the conversation when sent back within the channel’s days, and a token of another widget starts a new one', async () => {
    const v = await visitor(widgetA.publicId);
    await send(widgetA.publicId, v.token, 'back-id-0001', 'remember me');
    const back = await visitor(widgetA.publicId, { token: v.token });
    expect(back.continued).toBe(true);
    expect((await history(widgetA.publicId, back.token)).body.messages.map((m) => m.text)).toEqual(['remember me']);
    const claims = JSON.parse(Buffer.from(back.token.split('.')[1], 'base64url').toString()) as { exp: number; iat: number };
    expect(claims.exp - claims.iat).toBe(7 * 86_400);

    const stranger = await visitor(otherWidgetA.publicId, { token: v.token });
    expect(stranger.continued).toBe(false);
    expect((await history(otherWidgetA.publicId, stranger.token)).body).toEqual({ session: null, messages: [], next: null });
  });

  it('keeps identify() on its own session, marked as given by the visitor', async () => {
    const v = await visitor(widgetA.publicId);
    const res = await api.inject({ method: 'POST', url: `/v1/widget/${widgetA.publicId}/identify`, headers: as(v.token), payload: { name: 'Ana', email: 'ana@example.test', plan: 'gold' } });
    expect([res.statusCode, res.json()]).toEqual([200, { identified: true }]);
    const visitorKey = JSON.parse(Buffer.from(v.token.split('.')[1], 'base64url').toString()).sub as string;
    const session = await db.session.findUniqueOrThrow({ where: { channelId_externalKey: { channelId: widgetA.id, externalKey: `visitor:${visitorKey}` } } });
    expect(session.visitorContext).toEqual({ givenBy: 'visitor', at: expect.any(String), values: { name: 'Ana', email: 'ana@example.test', plan: 'gold' } });
    const bad = await api.inject({ method: 'POST', url: `/v1/widget/${widgetA.publicId}/identify`, headers: as(v.token), payload: { 'not a key': 'x', note: 'y'.repeat(501) } });
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'validation-failed']);
    expect(bad.json().error.details.map((d: { path: string }) => d.path).sort()).toEqual(['not a key', 'note']);
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).visitorContext).toEqual(session.visitorContext);
  });
});

describe('the widget’s other boundaries', () => {
  it('refuses a page on another origin, or none, with 403 origin-not-allowed', async () => {
    const v = await visitor(widgetA.publicId);
    for (const origin of ['https://evil.example', 'https://shop.example.evil.example', 'http://shop.example', 'null']) {
      const start = await api.inject({ method: 'POST', url: `/v1/widget/${widgetA.publicId}/sessions`, headers: { origin }, payload: {} });
      expect([origin, start.statusCode, start.json().error.code]).toEqual([origin, 403, 'origin-not-allowed']);
      expect(start.headers['access-control-allow-origin']).toBeUndefined();
      const read = await api.inject({ method: 'GET', url: `/v1/widget/${widgetA.publicId}/messages`, headers: as(v.token, origin) });
      expect([read.statusCode, read.json().error.code]).toEqual([403, 'origin-not-allowed']);
    }
    const none = await api.inject({ method: 'POST', url: `/v1/widget/${widgetA.publicId}/sessions`, payload: {} });
    expect([none.statusCode, none.json().error.code]).toEqual([403, 'origin-not-allowed']);
    const unknown = await api.inject({ method: 'POST', url: '/v1/widget/wg_doesnotexist00000000/sessions', headers: { origin: SHOP }, payload: {} });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'widget-not-found']);
  });

  it('answers CORS for the channel’s origins only, and the console’s origins elsewhere as before', async () => {
    const preflight = (origin: string, url = `/v1/widget/${widgetA.publicId}/messages`) =>
      api.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const ok = await preflight(SHOP);
    expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain('last-event-id');
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(SHOP, `/v1/widget/${widgetB.publicId}x/messages`)).headers['access-control-allow-origin']).toBeUndefined();
    // The admin API still answers only the console's origin.
    expect((await preflight(SHOP, '/v1/admin/agents')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight('http://localhost:5173', '/v1/admin/agents')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('limits new visitor sessions per address (429 rate-limited with Retry-After), not other addresses', async () => {
    const from = (ip: string) => api.inject({ method: 'POST', url: `/v1/widget/${otherWidgetA.publicId}/sessions`, headers: { origin: SHOP, 'x-forwarded-for': ip }, payload: {} });
    for (let i = 0; i < 4; i++) expect((await from('203.0.113.7')).statusCode).toBe(200);
    const refused = await from('203.0.113.7');
    expect([refused.statusCode, refused.json().error.code, refused.json().error.details.scope]).toEqual([429, 'rate-limited', 'address']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });

  it('limits messages per visitor (429 before anything is stored)', async () => {
    const v = await visitor(otherWidgetA.publicId);
    for (let i = 0; i < 5; i++) expect((await send(otherWidgetA.publicId, v.token, `burst-id-000${i}`, `burst ${i}`)).statusCode).toBe(202);
    const refused = await send(otherWidgetA.publicId, v.token, 'burst-id-0009', 'burst 9');
    expect([refused.statusCode, refused.json().error.details.scope]).toEqual([429, 'visitor']);
    expect(await db.message.count({ where: { channelId: otherWidgetA.id, text: 'burst 9' } })).toBe(0);
  });

  it('serves the loader short-cached and the hashed panel immutable, precompressed, loadable from any site', async () => {
    const loader = await api.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['content-type']).toMatch(/javascript/);
    expect(loader.headers['content-encoding']).toBe('br');
    expect(loader.headers['cache-control']).toBe('public, max-age=300');
    expect(loader.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const panel = await api.inject({ method: 'GET', url: `/widget/${manifest.panel}`, headers: { 'accept-encoding': 'gzip' } });
    expect([panel.statusCode, panel.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(panel.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await api.inject({ method: 'GET', url: `/widget/${manifest.panel}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('switchboard-chat');
    for (const url of ['/widget/../package.json', '/widget/assets/panel.nothere000.js', '/widget/build.mjs']) {
      expect((await api.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it('is in the route list: every widget route is declared, and the token routes answer 401 without a token', () => {
    const widgetRoutes = declaredRoutes(api.app).filter((r) => r.path.startsWith('/v1/widget/')).map((r) => `${r.method} ${r.path}`);
    expect(widgetRoutes.sort()).toEqual([
      'GET /v1/widget/:publicId/messages',
      'GET /v1/widget/:publicId/stream',
      'POST /v1/widget/:publicId/identify',
      'POST /v1/widget/:publicId/messages',
      'POST /v1/widget/:publicId/sessions',
    ]);
  });
});
