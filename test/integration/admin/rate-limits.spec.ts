import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenant, openDb, unique } from './support/admin-fixtures';

jest.setTimeout(120_000);

// A second API process with tiny limits, so the test does not need hundreds of requests.
const KEY_LIMIT = 3;
const TENANT_LIMIT = 5;

let db: PrismaClient;
let api: ApiProcess;

beforeAll(async () => {
  db = openDb();
  api = await startApi(
    { ...process.env, RATE_LIMIT_KEY_PER_MINUTE: String(KEY_LIMIT), RATE_LIMIT_TENANT_PER_MINUTE: String(TENANT_LIMIT), LOG_LEVEL: 'warn' },
    unique('rate-limits'),
  );
});
afterAll(async () => {
  if (api) await stopApi(api.child);
  await db.$disconnect();
});

async function newKey(channel: { id: string; tenantId: string }): Promise<string> {
  const key = generateApiKey();
  await db.apiKey.create({ data: { tenantId: channel.tenantId, channelId: channel.id, prefix: key.prefix, keyHash: key.hash } });
  return key.key;
}

const post = (key: string) =>
  fetch(`${api.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session: unique('s'), text: 'hello' }),
  });

describe('ingest rate limits', () => {
  it('counts down RateLimit-Remaining and refuses the key past its limit with 429 rate-limited and Retry-After, storing nothing', async () => {
    const { channel } = await createTenant(db);
    const key = await newKey(channel);
    const remaining: string[] = [];
    for (let i = 0; i < KEY_LIMIT; i++) {
      const res = await post(key);
      expect(res.status).toBe(202);
      expect(res.headers.get('ratelimit-limit')).toBe(String(KEY_LIMIT));
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await post(key);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string; details: unknown } };
    expect(body.error).toMatchObject({ code: 'rate-limited', details: { scope: 'api-key', limit: KEY_LIMIT, windowSeconds: 60 } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    expect(await db.message.count({ where: { channelId: channel.id } })).toBe(KEY_LIMIT);
  });

  it("refuses every key of a tenant once the tenant's limit is spent, and not other tenants", async () => {
    const { channel } = await createTenant(db);
    const [first, second] = [await newKey(channel), await newKey(channel)];
    for (let i = 0; i < KEY_LIMIT; i++) expect((await post(first)).status).toBe(202);
    expect((await post(second)).status).toBe(202);
    expect((await post(second)).status).toBe(202);
    const refused = await post(second);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { details: { scope: string } } }).error.details.scope).toBe('tenant');

    const other = await createTenant(db);
    expect((await post(await newKey(other.channel))).status).toBe(202);
  });

  it('counts a concurrent burst exactly: the first requests up to the limit pass, each with its own RateLimit-Remaining', async () => {
    // The API counts concurrent requests of one key together (one store call per batch):
    // the burst must split at the limit as one-by-one requests do.
    const { channel } = await createTenant(db);
    const [key, other] = [await newKey(channel), await newKey(channel)];
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(key)));
    const passed = answers.filter((r) => r.status === 202);
    expect(passed).toHaveLength(KEY_LIMIT);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10 - KEY_LIMIT);
    expect(passed.map((r) => r.headers.get('ratelimit-remaining')).sort()).toEqual(['0', '1', '2']);
    expect(await db.message.count({ where: { channelId: channel.id } })).toBe(KEY_LIMIT);
    // What the key's window refused was given back to the tenant's: its other key still has the rest.
    for (let i = KEY_LIMIT; i < TENANT_LIMIT; i++) expect((await post(other)).status).toBe(202);
    expect((await post(other)).status).toBe(429);
  });

  it('does not count a request with a bad key', async () => {
    const res = await post('sb_live_not_a_real_key_0000000000000');
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});
