import { randomInt } from 'node:crypto';
import type { PrismaClient } from '@switchboard/db';
import { apiUrl, createTenant, createUser, openDb, PASSWORD, unique } from './support/admin-fixtures';

// The failed-login throttle per email and address, per email over all addresses, and per
// address over all emails. The test API trusts X-Forwarded-For from loopback (TRUST_PROXY, set by
// test/support/api-process.ts), so each test plays its own client addresses and never counts
// against another test's.

// Every failure is an argon2 check (64 MiB), which takes most of a second on a busy machine.
jest.setTimeout(300_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

/** A client address no other test uses (TEST-NET-2 with random bytes). */
const address = () => `198.51.${randomInt(256)}.${randomInt(1, 255)}`;

async function login(email: string, password: string, from: string) {
  const res = await fetch(apiUrl('/v1/admin/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code, retryAfter: Number(res.headers.get('retry-after')) };
}

async function failTimes(n: number, email: string, from: string): Promise<void> {
  for (let i = 0; i < n; i++) expect((await login(email, `wrong ${i}`, from)).status).toBe(401);
}

async function owner() {
  const { tenant } = await createTenant(db);
  return createUser(db, 'owner', tenant.id);
}

describe('the failed-login throttle', () => {
  it('locks one email at one address after 10 failures, even for the right password; the same email elsewhere still logs in', async () => {
    const user = await owner();
    const [a, b] = [address(), address()];
    await failTimes(10, user.email, a);

    const locked = await login(user.email, PASSWORD, a);
    expect(locked).toEqual({ status: 429, code: 'too-many-login-attempts', retryAfter: expect.any(Number) });
    expect(locked.retryAfter).toBeGreaterThan(0);
    expect(locked.retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await login(user.email, PASSWORD, b)).status).toBe(200);
  });

  it('counts an email over all addresses: 30 failures spread over three addresses lock it everywhere', async () => {
    const user = await owner();
    for (const from of [address(), address(), address()]) await failTimes(10, user.email, from);

    const elsewhere = await login(user.email, PASSWORD, address());
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.code).toBe('too-many-login-attempts');
  });

  it('counts an address over all emails: 100 failures lock every account from it, but not from other addresses', async () => {
    const user = await owner();
    const guesser = address();
    const prefix = unique('nobody');
    // Ten at a time: each failure costs an argon2 check on the API.
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(`${prefix}-${batch}-${i}@example.test`, 'guess', guesser)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    }

    const locked = await login(user.email, PASSWORD, guesser);
    expect(locked.status).toBe(429);
    expect(locked.code).toBe('too-many-login-attempts');
    expect((await login(user.email, PASSWORD, address())).status).toBe(200);
  });

  it('forgets the failures of an email at an address once it logs in there', async () => {
    const user = await owner();
    const from = address();
    await failTimes(9, user.email, from);
    expect((await login(user.email, PASSWORD, from)).status).toBe(200);
    await failTimes(9, user.email, from);
    expect((await login(user.email, PASSWORD, from)).status).toBe(200);
  });
});
