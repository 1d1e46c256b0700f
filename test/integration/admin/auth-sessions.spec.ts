import { DEV_AUTH_SECRET } from '@switchboard/config';
import type { PrismaClient } from '@switchboard/db';
import { SignJWT } from 'jose';
import { adminGet, apiUrl, createTenant, createUser, errorOf, openDb, PASSWORD } from './support/admin-fixtures';

// Login sessions of the console: the refresh cookie, its rotation and reuse detection, logout,
// and what ends a session (expiry, a disabled or deleted account).

jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

interface AuthAnswer {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes asserted below
  /** The raw Set-Cookie header, if any. */
  setCookie: string | undefined;
  /** The refresh token the answer set (empty when it cleared the cookie). */
  refresh: string | undefined;
}

async function authCall(path: 'login' | 'refresh' | 'logout', opts: { body?: unknown; refresh?: string; bearer?: string; headers?: Record<string, string> } = {}): Promise<AuthAnswer> {
  const res = await fetch(apiUrl(`/v1/admin/auth/${path}`), {
    method: 'POST',
    headers: {
      ...(opts.body !== undefined && { 'content-type': 'application/json' }),
      ...(opts.refresh !== undefined && { cookie: `sb_refresh=${opts.refresh}` }),
      ...(opts.bearer && { authorization: `Bearer ${opts.bearer}` }),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('sb_refresh='));
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, setCookie, refresh: setCookie?.split(';')[0].slice('sb_refresh='.length) };
}

async function loggedIn(role: 'owner' | 'viewer' = 'owner') {
  const { tenant } = await createTenant(db);
  const user = await createUser(db, role, tenant.id);
  const login = await authCall('login', { body: { email: user.email, password: PASSWORD } });
  expect(login.status).toBe(200);
  return { user, accessToken: login.body.accessToken as string, refresh: login.refresh! };
}

describe('POST /v1/admin/auth/login', () => {
  it('sets the refresh token as an HttpOnly, SameSite=Strict cookie scoped to the auth routes, never in the body', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id);

    const res = await authCall('login', { body: { email: user.email, password: PASSWORD } });

    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(900);
    expect(res.refresh).toMatch(/^[\w-]{43}$/);
    const attributes = res.setCookie!.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/v1/admin/auth']));
    // Plain HTTP: no Secure flag, or the browser would drop the cookie on http://localhost.
    expect(attributes).not.toContain('secure');
    expect(JSON.stringify(res.body)).not.toContain(res.refresh!);
    // Only the hash is stored.
    const rows = await db.authSession.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].tokenHash).not.toContain(res.refresh!);
  });

  it('marks the cookie Secure when the request came over HTTPS through the proxy', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id);
    const res = await authCall('login', { body: { email: user.email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.setCookie!.split(';').map((a) => a.trim().toLowerCase())).toContain('secure');
  });
});

describe('POST /v1/admin/auth/refresh', () => {
  it('rotates: answers a working access token and a new refresh token, and spends the old one', async () => {
    const s = await loggedIn();

    const next = await authCall('refresh', { refresh: s.refresh });

    expect(next.status).toBe(200);
    expect(next.body).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900, user: expect.objectContaining({ id: s.user.id }) });
    expect(next.refresh).toMatch(/^[\w-]{43}$/);
    expect(next.refresh).not.toBe(s.refresh);
    expect((await adminGet(next.body.accessToken as string, '/v1/admin/auth/me')).status).toBe(200);
    // The access token of the spent session ends with it.
    expect((await adminGet(s.accessToken, '/v1/admin/auth/me')).status).toBe(401);
    // And the rotated token keeps rotating.
    const third = await authCall('refresh', { refresh: next.refresh });
    expect(third.status).toBe(200);
    const rows = await db.authSession.findMany({ where: { userId: s.user.id }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => r.revokedAt !== null)).toEqual([true, true, false]);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
  });

  it('treats a spent refresh token presented again as stolen: 401 refresh-token-reused, and the whole family ends', async () => {
    const s = await loggedIn();
    const legit = await authCall('refresh', { refresh: s.refresh });
    expect(legit.status).toBe(200);

    const replay = await authCall('refresh', { refresh: s.refresh });

    expect(replay.status).toBe(401);
    expect(errorOf(replay.body).code).toBe('refresh-token-reused');
    // The cookie is cleared...
    expect(replay.setCookie).toMatch(/^sb_refresh=;/);
    // ...and the legitimate holder's newer tokens are dead too.
    const after = await authCall('refresh', { refresh: legit.refresh });
    expect(after.status).toBe(401);
    expect(errorOf(after.body).code).toBe('refresh-token-reused');
    const me = await adminGet(legit.body.accessToken as string, '/v1/admin/auth/me');
    expect(me.status).toBe(401);
    expect(errorOf(me.body).code).toBe('unauthenticated');
    // Another login of the same user is not touched.
    const other = await authCall('login', { body: { email: s.user.email, password: PASSWORD } });
    expect((await authCall('refresh', { refresh: other.refresh })).status).toBe(200);
  });

  it('lets exactly one of two simultaneous refreshes with one token win; the loser ends the family', async () => {
    const s = await loggedIn();
    const both = await Promise.all([authCall('refresh', { refresh: s.refresh }), authCall('refresh', { refresh: s.refresh })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = both.find((r) => r.status === 200)!;
    expect(errorOf(both.find((r) => r.status === 401)!.body).code).toBe('refresh-token-reused');
    expect((await authCall('refresh', { refresh: winner.refresh })).status).toBe(401);
    expect(await db.authSession.count({ where: { userId: s.user.id, revokedAt: null } })).toBe(0);
  });

  it.each([
    ['no cookie', undefined, 'refresh-token-missing'],
    ['an unknown token', 'x'.repeat(43), 'refresh-token-invalid'],
  ])('answers 401 for %s', async (_, refresh, code) => {
    const res = await authCall('refresh', { refresh });
    expect(res.status).toBe(401);
    expect(errorOf(res.body).code).toBe(code);
  });

  it('answers 401 refresh-token-expired once the session has expired', async () => {
    const s = await loggedIn();
    await db.authSession.updateMany({ where: { userId: s.user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await authCall('refresh', { refresh: s.refresh });
    expect(res.status).toBe(401);
    expect(errorOf(res.body).code).toBe('refresh-token-expired');
  });

  it('refuses a disabled user (401 account-disabled, the session ends) and a deleted one', async () => {
    const disabled = await loggedIn();
    await db.user.update({ where: { id: disabled.user.id }, data: { disabledAt: new Date() } });
    const res = await authCall('refresh', { refresh: disabled.refresh });
    expect(res.status).toBe(401);
    expect(errorOf(res.body).code).toBe('account-disabled');
    expect(await db.authSession.count({ where: { userId: disabled.user.id, revokedAt: null } })).toBe(0);

    const deleted = await loggedIn();
    await db.user.delete({ where: { id: deleted.user.id } });
    const gone = await authCall('refresh', { refresh: deleted.refresh });
    expect(gone.status).toBe(401);
    expect(errorOf(gone.body).code).toBe('refresh-token-invalid');
    expect((await adminGet(deleted.accessToken, '/v1/admin/auth/me')).status).toBe(401);
  });

  it('refreshes after the access token expired, which the API refuses with 401 unauthenticated', async () => {
    const s = await loggedIn();
    const [row] = await db.authSession.findMany({ where: { userId: s.user.id } });
    const expired = await new SignJWT({ sid: row.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(s.user.id)
      .setIssuer('switchboard')
      .setAudience('switchboard-console')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
      .sign(new TextEncoder().encode(process.env.AUTH_SECRET || DEV_AUTH_SECRET));

    const refused = await adminGet(expired, '/v1/admin/auth/me');
    expect(refused.status).toBe(401);
    expect(errorOf(refused.body).code).toBe('unauthenticated');

    const next = await authCall('refresh', { refresh: s.refresh });
    expect(next.status).toBe(200);
    expect((await adminGet(next.body.accessToken as string, '/v1/admin/auth/me')).body).toMatchObject({ id: s.user.id });
  });
});

describe('POST /v1/admin/auth/logout', () => {
  it('ends the session: 204, the cookie is cleared, the refresh token and the access token stop working', async () => {
    const s = await loggedIn();

    const res = await authCall('logout', { refresh: s.refresh, bearer: s.accessToken });

    expect(res.status).toBe(204);
    expect(res.setCookie).toMatch(/^sb_refresh=;.*Max-Age=0/i);
    const me = await adminGet(s.accessToken, '/v1/admin/auth/me');
    expect(me.status).toBe(401);
    expect(errorOf(me.body).code).toBe('unauthenticated');
    const refresh = await authCall('refresh', { refresh: s.refresh });
    expect(refresh.status).toBe(401);
  });

  it('ends the session with the access token alone (no cookie), and with the cookie alone', async () => {
    const byBearer = await loggedIn();
    expect((await authCall('logout', { bearer: byBearer.accessToken })).status).toBe(204);
    expect((await authCall('refresh', { refresh: byBearer.refresh })).status).toBe(401);

    const byCookie = await loggedIn();
    expect((await authCall('logout', { refresh: byCookie.refresh })).status).toBe(204);
    expect((await adminGet(byCookie.accessToken, '/v1/admin/auth/me')).status).toBe(401);
  });

  it('answers 204 with nothing to end, and leaves other sessions alone', async () => {
    const s = await loggedIn();
    expect((await authCall('logout')).status).toBe(204);
    expect((await authCall('logout', { refresh: 'not-a-token' })).status).toBe(204);
    expect((await adminGet(s.accessToken, '/v1/admin/auth/me')).status).toBe(200);
  });
});

describe('emails', () => {
  it('are one account whatever the letter case: the database refuses a twin that differs only in case', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'viewer', tenant.id);
    await expect(db.user.create({ data: { email: user.email.toUpperCase(), role: 'viewer', tenantId: tenant.id, passwordHash: 'x' } })).rejects.toThrow(/Unique constraint/i);
    const res = await authCall('login', { body: { email: `  ${user.email.toUpperCase()} `, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });
});
