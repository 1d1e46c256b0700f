import type { PrismaClient } from '@switchboard/db';
import { SignJWT } from 'jose';
import { adminGet, apiUrl, createTenant, createUser, login, openDb, PASSWORD } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

function postLogin(body: unknown) {
  return fetch(apiUrl('/v1/admin/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> })); // eslint-disable-line @typescript-eslint/no-explicit-any -- response shapes are asserted below
}

describe('POST /v1/admin/auth/login', () => {
  it('answers a bearer token and the user, never the password hash', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id);

    const res = await postLogin({ email: user.email, password: PASSWORD });

    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.tokenType).toBe('Bearer');
    expect(res.body.expiresIn).toBeGreaterThan(0);
    expect(res.body.user).toEqual({ id: user.id, email: user.email, name: user.name, role: 'owner', tenantId: tenant.id });
    expect(JSON.stringify(res.body)).not.toContain(user.passwordHash);
  });

  it('accepts the email in any letter case', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'viewer', tenant.id);
    const res = await postLogin({ email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('answers 401 invalid-credentials for a wrong password and for an unknown email, with one message', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'admin', tenant.id);

    const wrongPassword = await postLogin({ email: user.email, password: 'not the password' });
    const unknownEmail = await postLogin({ email: 'nobody-at-all@example.test', password: PASSWORD });

    expect(wrongPassword).toEqual({ status: 401, body: { error: { code: 'invalid-credentials', message: 'Email or password is wrong.' } } });
    expect(unknownEmail).toEqual(wrongPassword);
  });

  it('refuses a disabled user like a wrong password', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id, { disabledAt: new Date() });
    const res = await postLogin({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid-credentials');
  });

  it.each([
    ['no password', { email: 'a@example.test' }],
    ['an unknown field', { email: 'a@example.test', password: 'x', remember: true }],
    ['a password that is not a string', { email: 'a@example.test', password: 12345678 }],
  ])('answers 400 validation-failed for a body with %s', async (_, body) => {
    const res = await postLogin(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation-failed');
  });
});

describe('the failed-login throttle', () => {
  it('answers 429 too-many-login-attempts with Retry-After after 10 failures for one email, even with the right password', async () => {
    const { tenant } = await createTenant(db);
    const target = await createUser(db, 'owner', tenant.id);
    const bystander = await createUser(db, 'owner', tenant.id);
    for (let i = 0; i < 10; i++) {
      expect((await postLogin({ email: target.email, password: `guess ${i}` })).status).toBe(401);
    }

    const res = await fetch(apiUrl('/v1/admin/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: target.email, password: PASSWORD }),
    });

    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('too-many-login-attempts');
    // Another account from the same address is not locked out.
    expect((await postLogin({ email: bystander.email, password: PASSWORD })).status).toBe(200);
  });
});

describe('GET /v1/admin/auth/me', () => {
  it('answers the user of the token', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'operator', tenant.id);
    const token = await login(user.email);

    const res = await adminGet(token, '/v1/admin/auth/me');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: user.id, email: user.email, name: user.name, role: 'operator', tenantId: tenant.id });
  });

  it('answers 401 unauthenticated without a token', async () => {
    const res = await fetch(apiUrl('/v1/admin/auth/me'));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it.each([
    ['a malformed token', 'not-a-jwt'],
    ['a token signed with another secret', 'FORGED'],
  ])('answers 401 unauthenticated for %s', async (_, raw) => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id);
    const token =
      raw === 'FORGED'
        ? await new SignJWT({})
            .setProtectedHeader({ alg: 'HS256' })
            .setSubject(user.id)
            .setIssuer('switchboard')
            .setAudience('switchboard-console')
            .setExpirationTime('5m')
            .sign(new TextEncoder().encode('an-attacker-secret-that-is-long-enough-0123'))
        : raw;
    const res = await adminGet(token, '/v1/admin/auth/me');
    expect(res.status).toBe(401);
    expect((res.body as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it('answers 401 once the user is disabled, even with a token issued before', async () => {
    const { tenant } = await createTenant(db);
    const user = await createUser(db, 'owner', tenant.id);
    const token = await login(user.email);
    await db.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });

    const res = await adminGet(token, '/v1/admin/auth/me');

    expect(res.status).toBe(401);
    expect((res.body as { error: { code: string } }).error.code).toBe('unauthenticated');
  });
});
