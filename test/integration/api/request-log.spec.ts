import { readFileSync } from 'node:fs';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { eventually, startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { request } from './http';

jest.setTimeout(60_000);

// The API's JSON log: each request's "request completed" line names the tenant, channel, session
// and message it served (assignLogFields), those of that request only, and never its credential.

let prisma: PrismaClient;
let api: PrivateApi;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  api = await startPrivateApi({ LOG_LEVEL: 'info' });
  [a, b] = await Promise.all([createTenantFixture(prisma), createTenantFixture(prisma)]);
});

afterAll(async () => {
  await api?.stop();
  await prisma.$disconnect();
});

type LogLine = Record<string, unknown> & { req?: Record<string, unknown>; res?: { statusCode: number } };

function completedLines(): LogLine[] {
  return readFileSync(api.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === 'request completed');
}

/** The one "request completed" line of the request the API answered with this request id. */
async function lineOf(requestId: string): Promise<LogLine> {
  return eventually(async () => completedLines().find((line) => line.req?.id === requestId));
}

describe('request log lines', () => {
  it("carry each message's tenant, channel, session and message once, and not the API key", async () => {
    const first = await request('POST', '/v1/messages', { baseUrl: api.baseUrl, key: a.apiKey, json: { session: `s-${uniqueSuffix()}`, text: 'hello' } });
    const second = await request('POST', '/v1/messages', { baseUrl: api.baseUrl, key: b.apiKey, json: { session: `s-${uniqueSuffix()}`, text: 'hi' } });
    expect([first.status, second.status]).toEqual([202, 202]);

    for (const [res, fx] of [
      [first, a],
      [second, b],
    ] as const) {
      const line = await lineOf(res.headers.get('x-request-id')!);
      expect(line).toMatchObject({
        tenantId: fx.tenant.id,
        channelId: fx.channel.id,
        sessionId: res.body.sessionId,
        messageId: res.body.messageId,
        req: { method: 'POST', url: '/v1/messages' },
        res: { statusCode: 202 },
      });
    }
    // Each field is bound once: a second request on the same process does not inherit the first's.
    const raw = readFileSync(api.logFile, 'utf8').split('\n').find((l) => l.includes(second.headers.get('x-request-id')!) && l.includes('request completed'))!;
    expect(raw.match(/"tenantId"/g)).toHaveLength(1);
    expect(raw).not.toContain(a.tenant.id);

    const log = readFileSync(api.logFile, 'utf8');
    expect(log).not.toContain(a.apiKey);
    expect(log).not.toContain(b.apiKey);
  });

  it('leaves lines of requests without a tenant without one', async () => {
    const res = await request('GET', '/health/ready', { baseUrl: api.baseUrl });
    expect(res.status).toBe(200);
    const line = await lineOf(res.headers.get('x-request-id')!);
    expect(line.tenantId).toBeUndefined();
    expect(line.sessionId).toBeUndefined();
  });
});
