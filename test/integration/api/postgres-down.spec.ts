import { freePort, startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { uniqueName } from '../../support/test-database';

// A second API process whose database is unreachable: requests get a retryable 503 with a
// stable code (never an anonymous 500), and readiness says which dependency is down without
// leaking its address.

jest.setTimeout(30_000);

let api: ApiProcess;

beforeAll(async () => {
  const deadDatabase = `postgresql://postgres@127.0.0.1:${await freePort()}/nowhere`;
  api = await startApi({ ...process.env, DATABASE_URL: deadDatabase }, uniqueName('postgres-down'), 'live');
}, 90_000);

afterAll(async () => {
  if (api) await stopApi(api.child);
});

it('POST /v1/messages answers 503 database-unavailable with Retry-After', async () => {
  const res = await fetch(`${api.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: 'Bearer sb_live_anything000000000000000000000', 'content-type': 'application/json' },
    body: JSON.stringify({ session: 's', text: 'hello' }),
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('database-unavailable');
});

it('/health/ready answers 503 not-ready naming Postgres, without its address', async () => {
  const res = await fetch(`${api.baseUrl}/health/ready`);
  expect(res.status).toBe(503);
  const text = await res.text();
  const body = JSON.parse(text) as { error: { code: string; details: { error: Record<string, { status: string }> } } };
  expect(body.error.code).toBe('not-ready');
  expect(body.error.details.error.postgres.status).toBe('down');
  expect(text).not.toContain('127.0.0.1');
});
