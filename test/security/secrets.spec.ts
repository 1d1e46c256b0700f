import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, apiUrl, openDb, tenantWithUsers, unique } from '../integration/admin/support/admin-fixtures';
import { apiLog } from '../integration/admin/support/api-log';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { startWorker, type WorkerProcess } from '../support/worker-process';

jest.setTimeout(240_000);

// Every secret this test creates (a provider key, two webhook signing secrets, a channel API
// key) is then looked for in everything an attacker or an operator could read: API answers
// (other than the one answer that hands it out), error messages, the API's and the worker's
// logs, Turn and Message rows, and the audit log. Only a hash or the last 4 characters may be
// stored or shown.

/** The platform's own model keys in this worker: canaries that must never reach a tenant's URL. */
const PLATFORM_OPENAI_KEY = 'sk-platform-canary-openai-0123456789abcdef';
const PLATFORM_GEMINI_KEY = 'AIzaPlatformCanaryGemini0123456789abcdefg';

let db: PrismaClient;
let provider: FakeModelServer;
let echo: EchoingGateway;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  db = openDb();
  provider = await startFakeModelServer('the answer', 2);
  echo = await startEchoingGateway();
  // The fake model servers listen on 127.0.0.1, allow-listed as an operator would a local model.
  worker = await startWorker({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', OPENAI_API_KEY: PLATFORM_OPENAI_KEY, GEMINI_API_KEY: PLATFORM_GEMINI_KEY });
});
afterAll(async () => {
  await worker?.stop();
  await provider.close();
  await echo.close();
  await db.$disconnect();
});

interface EchoingGateway {
  baseURL: string;
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A gateway that refuses every key with a 401 quoting the credentials it was sent, as many do. */
async function startEchoingGateway(): Promise<EchoingGateway> {
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    headers.push(req.headers);
    req.resume();
    const sent = `Authorization: ${req.headers.authorization ?? '(none)'}; x-goog-api-key: ${String(req.headers['x-goog-api-key'] ?? '(none)')}`;
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided. You sent ${sent}`, type: 'invalid_request_error', code: 'invalid_api_key', sent: req.headers } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    headers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('secrets', () => {
  it('never appear in answers, error messages, logs, Turn or Message rows, or the audit log', async () => {
    const world = await tenantWithUsers(db, ['owner'] as const);
    const token = world.tokens.owner;
    const seen: string[] = []; // everything readable, except the one answer that hands a secret out
    const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => adminSend(token, method, path, body);

    // The provider key: write-only.
    const providerKey = `sk-${unique('providerkey')}-TAIL`;
    const cred = await send('POST', '/v1/admin/provider-credentials', { name: unique('cred'), kind: 'openai-compatible', baseURL: provider.baseURL, secret: providerKey });
    expect(cred.status).toBe(201);
    seen.push(cred.text);
    const credId = (cred.body as { id: string }).id;

    // Webhook secrets: in the create and rotate answers only.
    const channel = await send('POST', '/v1/admin/channels', { agentId: world.agent.id, name: unique('ch'), webhookUrl: 'https://hooks.example.test/in' });
    expect(channel.status).toBe(201);
    const { id: channelId, webhookSecret: firstWebhookSecret } = channel.body as { id: string; webhookSecret: string };
    const rotated = await send('POST', `/v1/admin/channels/${channelId}/rotate-secret`);
    const secondWebhookSecret = (rotated.body as { webhookSecret: string }).webhookSecret;
    expect(secondWebhookSecret).not.toBe(firstWebhookSecret);

    // The channel API key: in the create answer only.
    const key = await send('POST', '/v1/admin/api-keys', { channelId, name: 'secret-scan' });
    expect(key.status).toBe(201);
    const apiKey = (key.body as { key: string }).key;

    const secrets = { providerKey, firstWebhookSecret, secondWebhookSecret, apiKey };
    for (const [name, value] of Object.entries(secrets)) expect({ name, long: value.length >= 16 }).toEqual({ name, long: true });

    // The agent uses the credential; a real turn runs through the worker.
    const config = { provider: { kind: 'openai-compatible', model: 'local-model', credentialId: credId }, fields: {}, flows: [], tools: [] };
    expect((await send('PUT', `/v1/admin/agents/${world.agent.id}`, { config })).status).toBe(200);
    expect((await send('POST', `/v1/admin/agents/${world.agent.id}/publish`)).status).toBeLessThan(300);
    const posted = await fetch(apiUrl('/v1/messages?wait=30'), {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: unique('customer'), text: 'hello' }),
    });
    const postedText = await posted.text();
    seen.push(postedText);
    expect(posted.status).toBe(200);
    expect(provider.headers.map((h) => String(h.authorization))).toContain(`Bearer ${providerKey}`); // the key did its job

    // Error paths that carry a secret in the request.
    const errors = [
      await send('POST', '/v1/admin/provider-credentials', { name: 42, kind: 'openai', secret: providerKey }),
      await send('POST', '/v1/admin/provider-credentials', { name: unique('c'), kind: 'anthropic', secret: providerKey }),
      await send('POST', '/v1/admin/provider-credentials', { name: unique('c'), kind: 'openai', secret: providerKey, extra: providerKey }),
      await send('PUT', `/v1/admin/provider-credentials/${credId}`, { secret: [providerKey] }),
      await send('PUT', `/v1/admin/channels/${channelId}`, { webhookUrl: [firstWebhookSecret] }),
      await send('POST', '/v1/admin/api-keys', { channelId: apiKey }),
    ];
    for (const e of errors) expect(e.status).toBeGreaterThanOrEqual(400);
    seen.push(...errors.map((e) => e.text));
    for (const authorization of [`Bearer ${apiKey}x`, `Bearer x${apiKey}`, `Basic ${apiKey}`, apiKey]) {
      const res = await fetch(apiUrl('/v1/messages'), { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{"session":"s","text":"t"}' });
      expect(res.status).toBe(401);
      seen.push(await res.text());
    }

    // Everything readable afterwards.
    for (const path of ['/v1/admin/provider-credentials', `/v1/admin/provider-credentials/${credId}`, '/v1/admin/channels', `/v1/admin/channels/${channelId}`, '/v1/admin/api-keys', '/v1/admin/audit-log', '/v1/admin/turns', '/v1/admin/messages', '/v1/admin/sessions']) {
      const res = await adminGet(token, path, path.includes('/v1/admin/audit-log') || !path.split('/')[4] ? { range: [0, 99] } : {});
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      seen.push(JSON.stringify(res.body));
    }
    const tenantId = world.tenant.id;
    const dump = (rows: unknown) => JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const turns = await db.turn.findMany({ where: { tenantId } });
    expect(turns.length).toBeGreaterThan(0);
    seen.push(dump(turns));
    seen.push(dump(await db.message.findMany({ where: { tenantId } })));
    seen.push(dump(await db.auditLog.findMany({ where: { tenantId } })));
    seen.push(dump(await db.providerCredential.findMany({ where: { tenantId } })));
    seen.push(dump(await db.channel.findMany({ where: { tenantId } })));
    seen.push(dump(await db.apiKey.findMany({ where: { tenantId } })));
    seen.push(apiLog());
    seen.push(readFileSync(worker!.logFile, 'utf8'), JSON.stringify(worker!.logs));

    const everything = seen.join('\n');
    const found = Object.entries(secrets).filter(([, value]) => everything.includes(value)).map(([name]) => name);
    expect(found).toEqual([]);
    // The hand-out answers did carry them (the scan would prove nothing if they were empty).
    expect([channel.text.includes(firstWebhookSecret), rotated.text.includes(secondWebhookSecret), key.text.includes(apiKey)]).toEqual([true, true, true]);
  });

  it('a provider error quoting the key leaves no trace of it, and no platform key reaches a custom base URL', async () => {
    const world = await tenantWithUsers(db, ['owner', 'viewer'] as const);
    const token = world.tokens.owner;
    const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => adminSend(token, method, path, body);
    const seen: string[] = [];

    // Agent 1 uses the tenant's key at a gateway that quotes it back in its 401.
    const tenantKey = `sk-${unique('echoedkey')}-TAIL`;
    const cred = await send('POST', '/v1/admin/provider-credentials', { name: unique('gw'), kind: 'openai-compatible', baseURL: echo.baseURL, secret: tenantKey });
    expect(cred.status).toBe(201);
    const config = { provider: { kind: 'openai-compatible', model: 'gw-model', credentialId: (cred.body as { id: string }).id }, fields: {}, flows: [], tools: [] };
    expect((await send('PUT', `/v1/admin/agents/${world.agent.id}`, { config })).status).toBe(200);
    expect((await send('POST', `/v1/admin/agents/${world.agent.id}/publish`)).status).toBe(200);

    // Agent 2 was published before the rule (written straight to the database): an "openai" agent
    // at the same gateway with no credential. Publishing it now is refused; the worker refuses it too.
    const legacyConfig = { provider: { kind: 'openai', model: 'gpt-4o-mini', baseURL: echo.baseURL }, fields: {}, flows: [], tools: [] };
    const legacy = await db.agent.create({ data: { tenantId: world.tenant.id, name: 'legacy', config: legacyConfig, publishedVersion: 1 } });
    await db.agentVersion.create({ data: { tenantId: world.tenant.id, agentId: legacy.id, version: 1, config: legacyConfig } });
    const refused = await send('POST', `/v1/admin/agents/${legacy.id}/publish`);
    expect([refused.status, (refused.body as { error: { code: string } }).error.code]).toEqual([422, 'provider-base-url-needs-credential']);
    seen.push(refused.text);

    const before = echo.headers.length;
    for (const agentId of [world.agent.id, legacy.id]) {
      const channel = await send('POST', '/v1/admin/channels', { agentId, name: unique('ch') });
      expect(channel.status).toBe(201);
      const key = await send('POST', '/v1/admin/api-keys', { channelId: (channel.body as { id: string }).id, name: 'echo' });
      const posted = await fetch(apiUrl('/v1/messages?wait=30'), {
        method: 'POST',
        headers: { authorization: `Bearer ${(key.body as { key: string }).key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session: unique('customer'), text: 'hello' }),
      });
      seen.push(await posted.text());
    }
    // The gateway did get (and quote) the tenant's key, and never a platform key.
    expect(echo.headers.slice(before).map((h) => h.authorization)).toContain(`Bearer ${tenantKey}`);
    expect(JSON.stringify(echo.headers)).not.toMatch(/canary/i);

    const turns = await db.turn.findMany({ where: { tenantId: world.tenant.id } });
    expect(turns.map((t) => t.outcomeCodes).flat()).toEqual(expect.arrayContaining(['provider-auth', 'agent-unavailable']));
    const dump = (rows: unknown) => JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    seen.push(dump(turns), dump(await db.message.findMany({ where: { tenantId: world.tenant.id } })), dump(await db.auditLog.findMany({ where: { tenantId: world.tenant.id } })));
    for (const viewerOrOwner of [world.tokens.owner, world.tokens.viewer]) {
      for (const path of ['/v1/admin/turns', '/v1/admin/messages', '/v1/admin/sessions', '/v1/admin/audit-log', ...turns.map((t) => `/v1/admin/turns/${t.id}`)]) {
        const res = await adminGet(viewerOrOwner, path, path.split('/')[4] ? {} : { range: [0, 99] });
        if (!path.includes('audit-log')) expect({ path, status: res.status }).toEqual({ path, status: 200 });
        seen.push(JSON.stringify(res.body));
      }
    }
    // The trace kept what the gateway said, minus the key.
    expect(seen.join('\n')).toContain('Incorrect API key provided');
    expect(seen.join('\n')).toContain('[redacted]');
    seen.push(apiLog(), readFileSync(worker!.logFile, 'utf8'), JSON.stringify(worker!.logs));

    const everything = seen.join('\n');
    expect({ tenantKey: everything.includes(tenantKey), openai: everything.includes(PLATFORM_OPENAI_KEY), gemini: everything.includes(PLATFORM_GEMINI_KEY) }).toEqual({
      tenantKey: false,
      openai: false,
      gemini: false,
    });
  });
});
