import { generateApiKey, recordConsoleUsage, recordTurnUsage, type PrismaClient } from '@switchboard/db';
import { createWidgetChannel } from '../../support/widget';
import { adminGet, adminSend, apiUrl, createSession, createTenant, createUser, login, openDb, unique } from './support/admin-fixtures';

jest.setTimeout(60_000);

let db: PrismaClient;

beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

/** A tenant with an API key and `llmCalls` / tokens already used this month (what the worker's roll-up holds). */
async function tenantThatUsed(llmCalls: number, tokens: number) {
  const t = await createTenant(db);
  const key = generateApiKey();
  await db.apiKey.create({ data: { tenantId: t.tenant.id, channelId: t.channel.id, prefix: key.prefix, keyHash: key.hash } });
  await recordTurnUsage(db, {
    tenantId: t.tenant.id, agentId: t.agent.id, at: new Date(), llmCalls, inputTokens: tokens, outputTokens: 0, cachedInputTokens: 0,
    queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
  });
  return { ...t, key: key.key };
}

const post = (key: string, body: unknown) =>
  fetch(apiUrl('/v1/messages'), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('monthly quotas', () => {
  it('stores a message over the llmCalls quota as failed and answers 429 quota-exceeded with its ids', async () => {
    const t = await tenantThatUsed(5, 100);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyLlmCallQuota: 5n } });
    const session = unique('s');
    const res = await post(t.key, { session, text: 'over quota', id: 'ext-1' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const error = ((await res.json()) as { error: { code: string; message: string; details: { messageId: string; sessionId: string; quota: string; limit: number } } }).error;
    expect(error).toMatchObject({ code: 'quota-exceeded', details: { quota: 'llmCalls', limit: 5 } });
    expect(error.message).toContain('monthly quota of 5 model calls');
    const stored = await db.message.findUniqueOrThrow({ where: { id: error.details.messageId } });
    expect(stored).toMatchObject({ status: 'failed', kind: 'quota-exceeded', text: 'over quota', direction: 'inbound', sessionId: error.details.sessionId });

    // A retry with the same channel message id does not store it twice.
    const again = await post(t.key, { session, text: 'over quota', id: 'ext-1' });
    expect(again.status).toBe(429);
    expect(await db.message.count({ where: { channelId: t.channel.id } })).toBe(1);
  });

  it('refuses over the token quota too, and accepts a tenant under both quotas', async () => {
    const over = await tenantThatUsed(1, 1000);
    await db.tenant.update({ where: { id: over.tenant.id }, data: { monthlyLlmCallQuota: 100n, monthlyTokenQuota: 1000n } });
    const refused = await post(over.key, { session: unique('s'), text: 'hi' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { details: { quota: string } } }).error.details.quota).toBe('tokens');

    const under = await tenantThatUsed(1, 10);
    await db.tenant.update({ where: { id: under.tenant.id }, data: { monthlyLlmCallQuota: 100n, monthlyTokenQuota: 1000n } });
    expect((await post(under.key, { session: unique('s'), text: 'hi' })).status).toBe(202);
  });

  type QuotaError = { error: { code: string; message: string; details: Record<string, unknown> } };

  it('refuses events and manual starts over quota with 429 quota-exceeded, storing nothing', async () => {
    const t = await tenantThatUsed(5, 100);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyLlmCallQuota: 5n } });
    const session = await createSession(db, t);
    const send = (path: string, body: unknown) =>
      fetch(apiUrl(path), { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const event = await send('/v1/events', { session: session.externalKey, event: 'paid', key: 'evt-1' });
    const start = await send(`/v1/sessions/${session.id}/start`, { flow: 'any', key: 'start-1' });
    for (const res of [event, start]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const error = ((await res.json()) as QuotaError).error;
      expect(error).toMatchObject({ code: 'quota-exceeded', details: { quota: 'llmCalls', limit: 5 } });
      expect(error.message).toContain('monthly quota of 5 model calls');
    }
    // Nothing for a worker to run: no flow input stored, no new session.
    expect(await db.wake.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db.session.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it('refuses a playground turn over quota with 429 quota-exceeded, running nothing and storing nothing', async () => {
    const t = await tenantThatUsed(5, 100);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyLlmCallQuota: 5n } });
    const owner = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const res = await adminSend(owner, 'POST', `/v1/admin/agents/${t.agent.id}/playground/turns`, { message: 'Oi' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: { code: 'quota-exceeded', details: { quota: 'llmCalls', limit: 5 } } });
    expect(await db.playgroundSession.count({ where: { agentId: t.agent.id } })).toBe(0);
  });

  it('refuses a widget visitor’s message over quota with 429 quota-exceeded, keeping it failed', async () => {
    const t = await tenantThatUsed(1, 1000);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyTokenQuota: 1000n } });
    const widget = await createWidgetChannel(db, t.tenant.id, t.agent.id, { allowedOrigins: ['https://shop.example'] });
    const grant = await fetch(apiUrl(`/v1/widget/${widget.publicId}/sessions`), {
      method: 'POST',
      headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(grant.status).toBe(200);
    const { token } = (await grant.json()) as { token: string };
    const res = await fetch(apiUrl(`/v1/widget/${widget.publicId}/messages`), {
      method: 'POST',
      headers: { origin: 'https://shop.example', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'widget-msg-0001', text: 'over quota' }),
    });
    expect(res.status).toBe(429);
    const error = ((await res.json()) as QuotaError).error;
    expect(error).toMatchObject({ code: 'quota-exceeded', details: { quota: 'tokens', limit: 1000 } });
    expect(await db.message.findUniqueOrThrow({ where: { id: error.details.messageId as string } })).toMatchObject({ status: 'failed', kind: 'quota-exceeded' });
  });

  it('lets a platform admin set quotas and a tenant user read the month against them', async () => {
    const t = await tenantThatUsed(3, 50);
    const platform = await login((await createUser(db, 'platform_admin', null)).email);
    const set = await adminSend(platform, 'PUT', `/v1/admin/tenants/${t.tenant.id}`, { monthlyLlmCallQuota: 10, monthlyTokenQuota: null });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ monthlyLlmCallQuota: 10, monthlyTokenQuota: null });

    const viewer = await login((await createUser(db, 'viewer', t.tenant.id)).email);
    const quota = await adminGet(viewer, '/v1/admin/usage/quota');
    expect(quota.status).toBe(200);
    expect(quota.body).toMatchObject({ llmCalls: { used: 3, quota: 10 }, tokens: { used: 50, quota: null }, exceeded: null });
    const forTenant = await adminGet(platform, '/v1/admin/usage/quota', { tenantId: t.tenant.id });
    expect(forTenant.body).toMatchObject({ llmCalls: { used: 3, quota: 10 } });
  });

  it('counts the console runs (playground, live tests) toward the quota as a line of their own, never as customer usage', async () => {
    const t = await tenantThatUsed(3, 50);
    await recordConsoleUsage(db, { tenantId: t.tenant.id, agentId: t.agent.id, source: 'playground', at: new Date(), turns: 2, llmCalls: 4, inputTokens: 30, outputTokens: 10, cachedInputTokens: 0 });
    await recordConsoleUsage(db, { tenantId: t.tenant.id, agentId: t.agent.id, source: 'conversation-test', at: new Date(), turns: 1, llmCalls: 3, inputTokens: 5, outputTokens: 5, cachedInputTokens: 0 });
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyLlmCallQuota: 10n } });
    const viewer = await login((await createUser(db, 'viewer', t.tenant.id)).email);

    const quota = await adminGet(viewer, '/v1/admin/usage/quota');
    expect(quota.body).toMatchObject({ llmCalls: { used: 10, quota: 10 }, tokens: { used: 100 }, console: { llmCalls: 7, tokens: 50 }, exceeded: 'llmCalls' });
    const summary = await adminGet(viewer, '/v1/admin/usage/summary');
    expect(summary.body).toMatchObject({
      turns: 1,
      llmCalls: 3,
      console: { playground: { turns: 2, llmCalls: 4, inputTokens: 30, outputTokens: 10 }, 'conversation-test': { turns: 1, llmCalls: 3 } },
    });
    const res = await post(t.key, { session: unique('s'), text: 'the console spent the rest' });
    expect(res.status).toBe(429);
  });
});
