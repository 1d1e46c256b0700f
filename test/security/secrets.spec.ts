import { readFileSync } from 'node:fs';
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

let db: PrismaClient;
let provider: FakeModelServer;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  db = openDb();
  provider = await startFakeModelServer('the answer', 2);
  worker = await startWorker();
});
afterAll(async () => {
  await worker?.stop();
  await provider.close();
  await db.$disconnect();
});

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
});
