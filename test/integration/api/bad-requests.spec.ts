import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { request, type ApiResponse } from './http';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

// Every bad request gets a 4xx with a stable error code and writes nothing. Each case posts a
// unique session key and text, then checks that no row holds either, and that the tenant's row
// counts did not move.

let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  fx = await createTenantFixture(prisma);
});

afterAll(() => prisma.$disconnect());

async function tenantCounts() {
  const [sessions, messages] = await Promise.all([
    prisma.session.count({ where: { tenantId: fx.tenant.id } }),
    prisma.message.count({ where: { tenantId: fx.tenant.id } }),
  ]);
  return { sessions, messages };
}

/** Sends a request built from a fresh session key, and proves nothing was stored. */
async function expectRejected(
  send: (session: string) => Promise<ApiResponse>,
  status: number,
  code: string,
): Promise<ApiResponse> {
  const session = `bad-${uniqueSuffix()}`;
  const before = await tenantCounts();
  const res = await send(session);
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(10);
  expect(await tenantCounts()).toEqual(before);
  expect(await prisma.session.count({ where: { externalKey: session } })).toBe(0);
  return res;
}

const post = (opts: Parameters<typeof request>[2], query = '') => request('POST', `/v1/messages${query}`, opts);

describe('POST /v1/messages rejects bad requests and writes nothing', () => {
  it('no API key → 401 missing-api-key', async () => {
    await expectRejected((session) => post({ json: { session, text: 'hi' } }), 401, 'missing-api-key');
  });

  it('an Authorization header that is not a bearer token → 401 missing-api-key', async () => {
    await expectRejected(
      (session) => post({ json: { session, text: 'hi' }, headers: { authorization: `Basic ${fx.apiKey}` } }),
      401,
      'missing-api-key',
    );
  });

  it('an unknown API key → 401 invalid-api-key', async () => {
    await expectRejected((session) => post({ key: 'sb_live_notARealKey000000000000000000', json: { session, text: 'hi' } }), 401, 'invalid-api-key');
  });

  it('a revoked API key → 401 api-key-revoked', async () => {
    const revoked = await createTenantFixture(prisma);
    await prisma.apiKey.update({ where: { id: revoked.apiKeyId }, data: { revokedAt: new Date() } });
    const session = `bad-${uniqueSuffix()}`;
    const res = await post({ key: revoked.apiKey, json: { session, text: 'hi' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api-key-revoked');
    expect(await prisma.message.count({ where: { tenantId: revoked.tenant.id } })).toBe(0);
    expect(await prisma.session.count({ where: { tenantId: revoked.tenant.id } })).toBe(0);
  });

  it('invalid JSON → 400 invalid-json', async () => {
    await expectRejected(
      (session) => post({ key: fx.apiKey, rawBody: `{"session":"${session}","text":"hi"`, contentType: 'application/json' }),
      400,
      'invalid-json',
    );
  });

  it('an empty JSON body → 400 invalid-json', async () => {
    await expectRejected(() => post({ key: fx.apiKey, rawBody: '', contentType: 'application/json' }), 400, 'invalid-json');
  });

  it('a body that is not JSON → 415 unsupported-media-type', async () => {
    await expectRejected(
      (session) => post({ key: fx.apiKey, rawBody: `session=${session}&text=hi`, contentType: 'application/x-www-form-urlencoded' }),
      415,
      'unsupported-media-type',
    );
  });

  it('a body over the size limit → 413 payload-too-large', async () => {
    await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'x'.repeat(200 * 1024) } }),
      413,
      'payload-too-large',
    );
  });

  it('missing text → 400 validation-failed naming body.text', async () => {
    const res = await expectRejected((session) => post({ key: fx.apiKey, json: { session } }), 400, 'validation-failed');
    expect(res.body.error.details).toEqual([
      { location: 'body', path: 'text', issue: 'invalid_type', message: expect.any(String) },
    ]);
  });

  it('empty text → 400 validation-failed', async () => {
    const res = await expectRejected((session) => post({ key: fx.apiKey, json: { session, text: '' } }), 400, 'validation-failed');
    expect(res.body.error.details).toEqual([{ location: 'body', path: 'text', issue: 'too_small', message: expect.any(String) }]);
  });

  it('text over 16,000 characters → 400 validation-failed', async () => {
    const res = await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'a'.repeat(16_001) } }),
      400,
      'validation-failed',
    );
    expect(res.body.error.details).toEqual([{ location: 'body', path: 'text', issue: 'too_big', message: expect.any(String) }]);
  });

  it('text of exactly 16,000 characters is accepted', async () => {
    const res = await post({ key: fx.apiKey, json: { session: `ok-${uniqueSuffix()}`, text: 'a'.repeat(16_000) } });
    expect(res.status).toBe(202);
  });

  it('text that is not a string → 400 validation-failed', async () => {
    const res = await expectRejected((session) => post({ key: fx.apiKey, json: { session, text: 42 } }), 400, 'validation-failed');
    expect(res.body.error.details).toEqual([{ location: 'body', path: 'text', issue: 'invalid_type', message: expect.any(String) }]);
  });

  it('unknown fields → 400 validation-failed listing each one', async () => {
    const res = await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'hi', channel: 'x', priority: 1 } }),
      400,
      'validation-failed',
    );
    expect(res.body.error.details).toEqual([
      { location: 'body', path: 'channel', issue: 'unrecognized_keys', message: 'Unknown field "channel".' },
      { location: 'body', path: 'priority', issue: 'unrecognized_keys', message: 'Unknown field "priority".' },
    ]);
  });

  it('a session key over 200 characters → 400 validation-failed', async () => {
    const session = `bad-${uniqueSuffix()}`.padEnd(201, 'k');
    const before = await tenantCounts();
    const res = await post({ key: fx.apiKey, json: { session, text: 'hi' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation-failed');
    expect(res.body.error.details).toEqual([{ location: 'body', path: 'session', issue: 'too_big', message: expect.any(String) }]);
    expect(await tenantCounts()).toEqual(before);
  });

  it('a message id over 200 characters → 400 validation-failed', async () => {
    await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'hi', id: 'i'.repeat(201) } }),
      400,
      'validation-failed',
    );
  });

  it('a body that is a JSON array → 400 validation-failed', async () => {
    await expectRejected((session) => post({ key: fx.apiKey, json: [{ session, text: 'hi' }] }), 400, 'validation-failed');
  });

  it.each(['31', '-1', '1.5', 'abc', '', '999'])('wait=%s → 400 validation-failed on query.wait', async (wait) => {
    const res = await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'hi' } }, `?wait=${wait}`),
      400,
      'validation-failed',
    );
    expect(res.body.error.details[0]).toMatchObject({ location: 'query', path: 'wait' });
  });

  it('an unknown query parameter → 400 validation-failed', async () => {
    const res = await expectRejected(
      (session) => post({ key: fx.apiKey, json: { session, text: 'hi' } }, '?timeout=5'),
      400,
      'validation-failed',
    );
    expect(res.body.error.details).toEqual([
      { location: 'query', path: 'timeout', issue: 'unrecognized_keys', message: 'Unknown field "timeout".' },
    ]);
  });
});
