import type { PrismaClient } from '@switchboard/db';
import { createTenant, createUser, openDb, PASSWORD, unique } from '../integration/admin/support/admin-fixtures';
import { createWidgetChannel } from '../support/widget';
import { startInProcessApi, type InProcessApi } from './support/in-process-api';
import { deleteQueueKeys } from '../support/queue-keys';

// The client address the login throttle and the widget's per-address limits key on, and the
// scheme the refresh cookie's Secure follows, come from X-Forwarded-For / X-Forwarded-Proto only
// when the peer is a proxy TRUST_PROXY names. Default: nobody is. inject() connects from
// 127.0.0.1 unless told otherwise (remoteAddress).

jest.setTimeout(180_000);

const SHOP = 'https://shop.example';
let db: PrismaClient;
const apis: InProcessApi[] = [];
const prefixes: string[] = [];

/** An API with its own QUEUE_PREFIX, so its throttle counts are this test's alone. */
async function api(env: Record<string, string>): Promise<InProcessApi> {
  const prefix = unique('sbt-addr');
  prefixes.push(prefix);
  const started = await startInProcessApi({ QUEUE_PREFIX: prefix, ...env });
  apis.push(started);
  return started;
}

beforeAll(() => {
  db = openDb();
});
afterAll(async () => {
  for (const a of apis) await a.close();
  for (const prefix of prefixes) await deleteQueueKeys(prefix);
  await db.$disconnect();
});

async function owner(): Promise<string> {
  const { tenant } = await createTenant(db);
  return (await createUser(db, 'owner', tenant.id)).email;
}

function login(app: InProcessApi, email: string, password: string, headers: Record<string, string>, remoteAddress?: string) {
  return app.inject({ method: 'POST', url: '/v1/admin/auth/login', headers, payload: { email, password }, ...(remoteAddress && { remoteAddress }) });
}

/** 10 failures for one email, each claiming another client address. */
async function failFromTenAddresses(app: InProcessApi, email: string, remoteAddress?: string): Promise<void> {
  for (let i = 1; i <= 10; i++) {
    const res = await login(app, email, `wrong ${i}`, { 'x-forwarded-for': `198.51.100.${i}` }, remoteAddress);
    expect(res.statusCode).toBe(401);
  }
}

describe('with TRUST_PROXY off (the default)', () => {
  let off: InProcessApi;
  beforeAll(async () => {
    off = await api({ TRUST_PROXY: '' });
  });

  it('a changed X-Forwarded-For does not escape the login limit: every attempt counts for the peer', async () => {
    expect(off.env.TRUST_PROXY).toBe(false);
    const email = await owner();
    await failFromTenAddresses(off, email);
    const locked = await login(off, email, PASSWORD, { 'x-forwarded-for': '198.51.100.99' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: 'too-many-login-attempts' } });
  });

  it('X-Forwarded-Proto does not make the refresh cookie Secure', async () => {
    const res = await login(off, await owner(), PASSWORD, { 'x-forwarded-proto': 'https' }, '192.0.2.10');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
  });

  it('a changed X-Forwarded-For does not escape the widget’s per-address token limit', async () => {
    const limited = await api({ TRUST_PROXY: '', WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR: '2' });
    const t = await createTenant(db);
    const widget = await createWidgetChannel(db, t.tenant.id, t.agent.id, { allowedOrigins: [SHOP] });
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const res = await limited.inject({ method: 'POST', url: `/v1/widget/${widget.publicId}/sessions`, headers: { origin: SHOP, 'x-forwarded-for': `203.0.113.${i}` }, payload: {} });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let trusted: InProcessApi;
  beforeAll(async () => {
    trusted = await api({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' });
  });

  it('honours X-Forwarded-For from the proxy: the limit is per client behind it', async () => {
    expect(trusted.env.TRUST_PROXY).toEqual(['127.0.0.1', '10.0.0.0/8']);
    const email = await owner();
    for (let i = 0; i < 10; i++) expect((await login(trusted, email, `wrong ${i}`, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(401);
    expect((await login(trusted, email, PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
    // Another client behind the same proxy still logs in.
    expect((await login(trusted, email, PASSWORD, { 'x-forwarded-for': '198.51.100.8' }, '10.1.2.3')).statusCode).toBe(200);
  });

  it('honours X-Forwarded-Proto from the proxy: the refresh cookie is Secure', async () => {
    const res = await login(trusted, await owner(), PASSWORD, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/;\s*Secure/i);
  });

  it('ignores X-Forwarded-For from a peer that is not the proxy', async () => {
    const email = await owner();
    await failFromTenAddresses(trusted, email, '192.0.2.44');
    expect((await login(trusted, email, PASSWORD, { 'x-forwarded-for': '198.51.100.99' }, '192.0.2.44')).statusCode).toBe(429);
  });
});
