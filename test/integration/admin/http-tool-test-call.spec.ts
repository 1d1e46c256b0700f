import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrismaClient } from '@switchboard/db';
import { startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { createUser, errorOf, openDb, PASSWORD, tenantWithUsers, unique } from './support/admin-fixtures';

// POST /v1/admin/http-tools/:id/test: the API checks the arguments, a real worker process makes
// the call (secret headers, SSRF guard) and the API answers what came back. Its own API and
// queue prefix, so no other suite's worker takes these jobs.

jest.setTimeout(240_000);

const SECRET = 'Bearer test-call-secret-4242';

let db: PrismaClient;
let api: PrivateApi;
let worker: WorkerProcess | undefined;
let receiver: Server;
let port: number;
let token: string;
let operatorToken: string;
let tenantId: string;
const seen: { url?: string; authorization?: string; body: string }[] = [];

async function send(path: string, body: unknown, as = token) {
  const res = await fetch(api.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function loginAt(email: string): Promise<string> {
  const res = await fetch(`${api.baseUrl}/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function createTool(url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await send('/v1/admin/http-tools', {
    toolId: unique('quote').replace(/-/g, '_'),
    url,
    method: 'POST',
    parameters: { type: 'object', properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1 } }, required: ['city'] },
    secretHeaders: { Authorization: SECRET },
    timeoutMs: 3000,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  db = openDb();
  receiver = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url, authorization: req.headers.authorization, body });
      // Echoes the credential it got, as debugging endpoints do: it must not reach the console.
      res.writeHead(200, { 'content-type': 'application/json', 'x-quote-id': 'q-77', 'x-seen-auth': req.headers.authorization ?? '' });
      res.end(JSON.stringify({ price: 320, echo: JSON.parse(body || '{}') as unknown, auth: req.headers.authorization }));
    });
  });
  // Every interface, so "localhost" reaches it over IPv4 or IPv6.
  await new Promise<void>((r) => receiver.listen(0, r));
  port = (receiver.address() as AddressInfo).port;
  api = await startPrivateApi();
  const world = await tenantWithUsers(db, [] as const);
  tenantId = world.tenant.id;
  token = await loginAt((await createUser(db, 'owner', tenantId)).email);
  operatorToken = await loginAt((await createUser(db, 'operator', tenantId)).email);
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  if (receiver) await new Promise((r) => receiver.close(r));
  await db?.$disconnect();
});

describe('an HTTP tool test call', () => {
  it('answers 504 with a code when no worker takes the call, and leaves no job behind for a later worker', async () => {
    const id = await createTool(`http://localhost:${port}/late`, { timeoutMs: 100 });
    const res = await send(`/v1/admin/http-tools/${id}/test`, { arguments: { city: 'Curitiba' } });
    expect(res.status).toBe(504);
    expect(errorOf(res.body).code).toBe('http-tool-test-timeout');
  });

  it('refuses arguments that break the tool schema (422) and a role that may not edit tools (403), calling nothing', async () => {
    const id = await createTool(`http://localhost:${port}/never`);
    const bad = await send(`/v1/admin/http-tools/${id}/test`, { arguments: { nights: 0 } });
    expect(bad.status).toBe(422);
    expect(errorOf(bad.body).code).toBe('invalid-tool-arguments');
    expect(errorOf(bad.body).message).toContain("must have required property 'city'");
    const notJson = await send(`/v1/admin/http-tools/${id}/test`, { arguments: 'city=Curitiba' });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson.body).code).toBe('validation-failed');
    const operator = await send(`/v1/admin/http-tools/${id}/test`, { arguments: { city: 'Curitiba' } }, operatorToken);
    expect(operator.status).toBe(403);
    expect(seen.filter((s) => s.url === '/never')).toEqual([]);
  });

  it('runs on a worker with the secret header, answers status, headers and body (an echoed secret scrubbed), and audits it without secrets', async () => {
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix, OUTBOUND_ALLOWED_HOSTS: 'localhost' });
    const id = await createTool(`http://localhost:${port}/quote`);
    const res = await send(`/v1/admin/http-tools/${id}/test`, { arguments: { city: 'Curitiba', nights: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, truncated: false, headers: { 'content-type': 'application/json', 'x-quote-id': 'q-77' } });
    expect(JSON.parse(res.body.body as string)).toEqual({ price: 320, echo: { city: 'Curitiba', nights: 2 }, auth: '[secret header value]' });
    expect(JSON.stringify(res.body)).not.toContain('test-call-secret');
    expect(seen.find((s) => s.url === '/quote')).toMatchObject({ authorization: SECRET });
    // The 504 call above was removed from the queue: the worker never made it.
    expect(seen.filter((s) => s.url === '/late')).toEqual([]);

    const audit = await db.auditLog.findFirst({ where: { tenantId, action: 'tool.test', entityId: id } });
    expect(audit?.after).toMatchObject({ arguments: { city: 'Curitiba', nights: 2 }, status: 200 });
    expect(JSON.stringify(audit)).not.toContain('test-call-secret');
  });

  it('answers the SSRF guard refusal as the tool error for a loopback target', async () => {
    const id = await createTool(`http://127.0.0.1:${port}/internal`);
    const res = await send(`/v1/admin/http-tools/${id}/test`, { arguments: { city: 'Curitiba' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'http-tool-address-forbidden' } });
    expect((res.body.error as { message: string }).message).toContain('refused to call 127.0.0.1');
    expect(seen.filter((s) => s.url === '/internal')).toEqual([]);
  });
});
