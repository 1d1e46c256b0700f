import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { decodeJwt, SignJWT } from 'jose';
import { createSession, createTenant, createUser, openDb, PASSWORD } from '../integration/admin/support/admin-fixtures';
import { loginInProcess, startInProcessApi, declaredRoutes, type InProcessApi } from './support/in-process-api';

jest.setTimeout(120_000);

// Who may act, checked at the edges: channel API keys stay inside their channel's sessions,
// revoked keys and bad tokens are refused, a viewer can write nothing, and the browser-facing
// headers (helmet, CORS) are what docs/security.md promises.

let api: InProcessApi;
let db: PrismaClient;

beforeAll(async () => {
  db = openDb();
  api = await startInProcessApi({ CONSOLE_ORIGIN: 'https://console.example' });
});
afterAll(async () => {
  await api?.close();
  await db?.$disconnect();
});

async function channelWithKey(t: Awaited<ReturnType<typeof createTenant>>, opts: { revoked?: boolean } = {}) {
  const key = generateApiKey();
  await db.apiKey.create({
    data: { tenantId: t.tenant.id, channelId: t.channel.id, prefix: key.prefix, keyHash: key.hash, revokedAt: opts.revoked ? new Date() : null },
  });
  return key.key;
}

const asKey = (key: string, url: string) => api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
const errorCode = (body: string) => {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return `(not JSON: ${body.slice(0, 40)})`;
  }
};

describe('channel API keys', () => {
  it("cannot read another channel's or another tenant's session: 404, as if it did not exist", async () => {
    const t = await createTenant(db);
    const key = await channelWithKey(t);
    // A second agent and channel of the same tenant, and a session on it.
    const otherAgent = await db.agent.create({ data: { tenantId: t.tenant.id, name: 'Other' } });
    const otherChannel = await db.channel.create({ data: { tenantId: t.tenant.id, agentId: otherAgent.id, name: 'Other' } });
    const sameTenant = await createSession(db, { tenant: t.tenant, agent: otherAgent, channel: otherChannel }, { texts: ['secret of another channel'] });
    const u = await createTenant(db);
    const otherTenant = await createSession(db, u, { texts: ['secret of another tenant'] });
    const own = await createSession(db, t, { texts: ['mine'] });

    expect((await asKey(key, `/v1/sessions/${own.id}/messages`)).statusCode).toBe(200);
    for (const session of [sameTenant, otherTenant]) {
      for (const path of ['messages', 'stream']) {
        const res = await asKey(key, `/v1/sessions/${session.id}/${path}`);
        expect({ path, status: res.statusCode, leaked: res.body.includes('secret of') }).toEqual({ path, status: 404, leaked: false });
      }
    }
  });

  it('refuses a revoked key with 401, including one revoked through the console a moment ago', async () => {
    const t = await createTenant(db);
    const revoked = await channelWithKey(t, { revoked: true });
    const res = await api.inject({ method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${revoked}` }, payload: { session: 's', text: 'hi' } });
    expect({ status: res.statusCode, code: errorCode(res.body) }).toEqual({ status: 401, code: 'api-key-revoked' });

    const key = await channelWithKey(t);
    const session = await createSession(db, t, { texts: ['x'] });
    expect((await asKey(key, `/v1/sessions/${session.id}/messages`)).statusCode).toBe(200); // now cached
    const owner = await createUser(db, 'owner', t.tenant.id);
    const token = await loginInProcess(api, owner.email, PASSWORD);
    const row = await db.apiKey.findFirstOrThrow({ where: { channelId: t.channel.id, revokedAt: null } });
    const del = await api.inject({ method: 'DELETE', url: `/v1/admin/api-keys/${row.id}`, headers: { authorization: `Bearer ${token}` } });
    expect(del.statusCode).toBeLessThan(300);
    const after = await asKey(key, `/v1/sessions/${session.id}/messages`);
    expect({ status: after.statusCode, code: errorCode(after.body) }).toEqual({ status: 401, code: 'api-key-revoked' });
  });

  it('refuses a missing, malformed or unknown key with 401 in the error shape', async () => {
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer sb_live_unknown', `Bearer ${'x'.repeat(5000)}`]) {
      const res = await api.inject({ method: 'POST', url: '/v1/messages', headers: authorization ? { authorization } : {}, payload: { session: 's', text: 'hi' } });
      expect({ authorization: authorization?.slice(0, 20), status: res.statusCode, shaped: typeof errorCode(res.body) }).toEqual({ authorization: authorization?.slice(0, 20), status: 401, shaped: 'string' });
    }
  });
});

describe('console access tokens', () => {
  // Tokens built like the API's (HS256, sub = user, sid = login session), one aspect wrong each.
  const sign = (secret: string, claims: { sub: string; sid: string }, opts: { exp?: number; iss?: string; aud?: string } = {}) =>
    new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(opts.iss ?? 'switchboard')
      .setAudience(opts.aud ?? 'switchboard-console')
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(new TextEncoder().encode(secret));

  it('refuses an expired token, one signed with another key, one for another audience or issuer, and alg "none"', async () => {
    const t = await createTenant(db);
    const owner = await createUser(db, 'owner', t.tenant.id);
    const real = await loginInProcess(api, owner.email, PASSWORD);
    const claims = decodeJwt(real) as { sub: string; sid: string };
    const secret = api.env.AUTH_SECRET;
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, iss: 'switchboard', aud: 'switchboard-console', exp: 9e9 })).toString('base64url')}.`;
    const cases: Record<string, string> = {
      expired: await sign(secret, claims, { exp: Math.floor(Date.now() / 1000) - 60 }),
      'wrong key': await sign('another-secret-of-at-least-32-characters!!', claims),
      'wrong audience': await sign(secret, claims, { aud: 'someone-else' }),
      'wrong issuer': await sign(secret, claims, { iss: 'someone-else' }),
      'alg none': unsigned,
      'unknown user': await sign(secret, { ...claims, sub: '00000000-0000-0000-0000-000000000000' }),
      'tampered payload': `${real.split('.')[0]}.${Buffer.from(JSON.stringify({ ...decodeJwt(real), sub: '00000000-0000-0000-0000-000000000001' })).toString('base64url')}.${real.split('.')[2]}`,
    };
    // The control: built the same way with everything right, it is accepted.
    const control = await api.inject({ method: 'GET', url: '/v1/admin/agents', headers: { authorization: `Bearer ${await sign(secret, claims)}` } });
    expect(control.statusCode).toBe(200);
    for (const [label, token] of Object.entries(cases)) {
      const res = await api.inject({ method: 'GET', url: '/v1/admin/agents', headers: { authorization: `Bearer ${token}` } });
      expect({ label, status: res.statusCode, code: errorCode(res.body) }).toEqual({ label, status: 401, code: 'unauthenticated' });
    }
  });

  it('refuses every write route of the app to a viewer with 403, and changes nothing', async () => {
    const t = await createTenant(db);
    const viewer = await createUser(db, 'viewer', t.tenant.id);
    const token = await loginInProcess(api, viewer.email, PASSWORD);
    // The auth routes are not role-gated (login, and refresh/logout with the refresh cookie).
    const writes = declaredRoutes(api.app).filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/admin') && !r.path.startsWith('/v1/admin/auth/'));
    const agentsBefore = await db.agent.findMany({ where: { tenantId: t.tenant.id } });
    const answers: string[] = [];
    for (const r of writes) {
      // Validation is a read: viewers may ask whether a draft would publish.
      if (r.path.endsWith('/validate')) continue;
      const url = r.path.replace(/:\w+/g, (p) => (p === ':id' ? t.agent.id : '1'));
      const res = await api.inject({ method: r.method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{}' });
      answers.push(`${r.method} ${r.path} → ${res.statusCode} ${errorCode(res.body)}`);
    }
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => !a.endsWith('→ 403 forbidden'))).toEqual([]);
    expect(await db.agent.findMany({ where: { tenantId: t.tenant.id } })).toEqual(agentsBefore);
  });
});

describe('browser-facing headers', () => {
  it('sets the helmet security headers and no X-Powered-By', async () => {
    const res = await api.inject({ method: 'GET', url: '/health/live' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('skips helmet and CORS on POST /v1/messages, which only servers call, and keeps them on the other channel routes', async () => {
    const t = await createTenant(db);
    const key = await channelWithKey(t);
    const origin = 'https://console.example';
    const posted = await api.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { authorization: `Bearer ${key}`, origin, 'content-type': 'application/json' },
      payload: { session: 'server-to-server', text: 'hi' },
    });
    expect(posted.statusCode).toBe(202);
    expect(posted.headers['content-security-policy']).toBeUndefined();
    expect(posted.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await api.inject({ method: 'OPTIONS', url: '/v1/messages', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await api.inject({ method: 'GET', url: `/v1/sessions/${JSON.parse(posted.body).sessionId}/messages`, headers: { authorization: `Bearer ${key}`, origin } });
    expect(listed.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(listed.headers['access-control-allow-origin']).toBe(origin);
  });

  it('allows CORS only for the configured console origin', async () => {
    const preflight = (origin: string) =>
      api.inject({ method: 'OPTIONS', url: '/v1/admin/agents', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const ok = await preflight('https://console.example');
    expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    for (const origin of ['https://evil.example', 'null', 'https://console.example.evil.example', 'http://console.example']) {
      const res = await preflight(origin);
      expect({ origin, acao: res.headers['access-control-allow-origin'] }).toEqual({ origin, acao: undefined });
      const get = await api.inject({ method: 'GET', url: '/health/live', headers: { origin } });
      expect({ origin, acao: get.headers['access-control-allow-origin'] }).toEqual({ origin, acao: undefined });
    }
  });

  it('answers a URL with a malformed percent-encoding with 400 invalid-url in the error shape', async () => {
    for (const url of ['/v1/admin/agents/%E0%A4%A', '/v1/sessions/%C0%AF/messages', '/health/%']) {
      const res = await api.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, code: errorCode(res.body) }).toEqual({ url, status: 400, code: 'invalid-url' });
    }
  });
});
