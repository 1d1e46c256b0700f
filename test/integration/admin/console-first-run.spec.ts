import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, apiUrl, createSession, createTenant, createUser, errorOf, login, openDb, unique } from './support/admin-fixtures';

jest.setTimeout(60_000);

// Issue 22, items 1, 3 and 6 over HTTP: the first-steps checklist ticked from a tenant's rows,
// the agent templates (each one publishes), the dashboard's exact latency percentiles and
// per-channel figures, and archiving an agent.

let db: PrismaClient;
let platform: string;

beforeAll(async () => {
  db = openDb();
  platform = await login((await createUser(db, 'platform_admin', null)).email);
});
afterAll(() => db.$disconnect());

type Steps = { tenantId: string; done: boolean; steps: { id: string; done: boolean; detail: string; channelId?: string; sessionId?: string }[] };
const ticks = (s: Steps) => Object.fromEntries(s.steps.map((x) => [x.id, x.done]));

describe('first steps', () => {
  it('ticks each step from the tenant’s own rows as a new tenant works through them', async () => {
    const slug = unique('fresh');
    const tenant = await db.tenant.create({ data: { name: 'Fresh', slug } });
    const owner = await login((await createUser(db, 'owner', tenant.id)).email);
    const read = async () => {
      const res = await adminGet(owner, '/v1/admin/first-steps');
      expect(res.status).toBe(200);
      return res.body as Steps;
    };

    const empty = await read();
    expect(empty).toMatchObject({ tenantId: tenant.id, done: false });
    expect(ticks(empty)).toEqual({ agent: false, channel: false, 'test-message': false, inbox: false });

    // An agent from the FAQ template, published.
    const templates = (await adminGet(owner, '/v1/admin/agent-templates')).body as { id: string; config: unknown }[];
    const faq = templates.find((t) => t.id === 'faq');
    const agent = await adminSend(owner, 'POST', '/v1/admin/agents', { name: 'Help desk', config: faq?.config });
    expect(agent.status).toBe(201);
    const agentId = (agent.body as { id: string }).id;
    expect(ticks(await read())).toEqual({ agent: false, channel: false, 'test-message': false, inbox: false }); // a draft is not enough
    expect((await adminSend(owner, 'POST', `/v1/admin/agents/${agentId}/publish`)).status).toBe(200);
    const published = await read();
    expect(ticks(published)).toEqual({ agent: true, channel: false, 'test-message': false, inbox: false });
    expect(published.steps[0]?.detail).toBe('"Help desk" is published.');

    const channel = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId, name: 'Website' });
    expect(channel.status).toBe(201);
    const channelId = (channel.body as { id: string }).id;
    const connected = await read();
    expect(ticks(connected)).toEqual({ agent: true, channel: true, 'test-message': false, inbox: false });
    expect(connected.steps[1]).toMatchObject({ channelId, detail: '"Website" is connected.' });

    // A customer's message through the public API with a key of the channel.
    const key = await adminSend(owner, 'POST', '/v1/admin/api-keys', { channelId });
    const plaintext = (key.body as { key: string }).key;
    const sent = await fetch(apiUrl('/v1/messages'), {
      method: 'POST',
      headers: { authorization: `Bearer ${plaintext}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: 'first-steps-1', text: 'When are you open?' }),
    });
    expect(sent.status).toBe(202);
    expect(ticks(await read())).toEqual({ agent: true, channel: true, 'test-message': true, inbox: false });

    // The worker's reply (written as its turn commit does) makes the conversation complete.
    const session = await db.session.findFirstOrThrow({ where: { tenantId: tenant.id, externalKey: 'first-steps-1' } });
    await db.message.create({ data: { tenantId: tenant.id, sessionId: session.id, channelId, direction: 'outbound', status: 'sent', text: '9 to 18.' } });
    const all = await read();
    expect(all.done).toBe(true);
    expect(all.steps[3]).toMatchObject({ id: 'inbox', done: true, sessionId: session.id });
  });

  it('is of one tenant: a platform admin names it, a tenant user cannot name another', async () => {
    const a = await createTenant(db);
    const b = await createTenant(db);
    const ownerA = await login((await createUser(db, 'owner', a.tenant.id)).email);

    const other = await adminGet(ownerA, '/v1/admin/first-steps', { tenantId: b.tenant.id });
    expect(other.status).toBe(400);
    expect(errorOf(other.body).code).toBe('invalid-tenant');
    expect(JSON.stringify(other.body)).not.toContain(b.channel.id);

    const unnamed = await adminGet(platform, '/v1/admin/first-steps');
    expect(unnamed.status).toBe(400);
    expect(errorOf(unnamed.body).code).toBe('tenant-required');

    const named = await adminGet(platform, '/v1/admin/first-steps', { tenantId: b.tenant.id });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ tenantId: b.tenant.id, steps: [{ id: 'agent', done: false }, { id: 'channel', done: true, channelId: b.channel.id }, {}, {}] });

    const unknownKey = await adminGet(ownerA, '/v1/admin/first-steps', { tenant: 'x' });
    expect(unknownKey.status).toBe(400);
    expect(errorOf(unknownKey.body).code).toBe('validation-failed');
  });
});

describe('agent templates', () => {
  it('offers the Concierge, a FAQ bot and lead capture; the FAQ and lead-capture bots publish as they are', async () => {
    const t = await createTenant(db);
    const owner = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const res = await adminGet(owner, '/v1/admin/agent-templates');
    expect(res.status).toBe(200);
    const templates = res.body as { id: string; name: string; description: string; config: { name: string } }[];
    expect(templates.map((x) => [x.id, x.name])).toEqual([
      ['concierge', 'Concierge'],
      ['faq', 'FAQ bot'],
      ['lead-capture', 'Lead capture'],
    ]);
    // The Concierge is the demo's agent, whose tools a worker registers: the worker-backed suites
    // (conversation-tests, the browser's first-run) publish it.
    expect(templates[0]?.config).toEqual(JSON.parse(JSON.stringify(conciergeAgentConfig)));
    for (const template of templates.slice(1)) {
      const created = await adminSend(owner, 'POST', '/v1/admin/agents', { name: template.name, config: template.config });
      expect(created.status).toBe(201);
      const published = await adminSend(owner, 'POST', `/v1/admin/agents/${(created.body as { id: string }).id}/publish`);
      expect({ id: template.id, status: published.status, error: published.status === 200 ? undefined : published.body }).toEqual({ id: template.id, status: 200, error: undefined });
    }
  });
});

describe('live usage: exact latency and channels', () => {
  const DAY1 = '2026-11-20';
  const DAY2 = '2026-11-21';
  const filter = (extra: Record<string, unknown> = {}) => ({ filter: { from: DAY1, to: DAY2, ...extra } });
  let a: Awaited<ReturnType<typeof createTenant>>;
  let b: Awaited<ReturnType<typeof createTenant>>;
  let viewerA: string;
  let phone: { id: string };

  const turnAt = async (t: typeof a, sessionId: string, at: string, totalMs: number, failed = false) =>
    db.turn.create({
      data: {
        tenantId: t.tenant.id,
        sessionId,
        agentId: t.agent.id,
        provider: 'scripted',
        model: 'scripted-model',
        llmCalls: 1,
        inputTokens: 10,
        outputTokens: 2,
        outcomeCodes: failed ? ['provider-auth'] : [],
        outcomes: failed ? [{ kind: 'reply', status: 'failed', code: 'provider-auth', at }] : [],
        totalMs,
        createdAt: new Date(at),
      },
    });

  beforeAll(async () => {
    a = await createTenant(db);
    b = await createTenant(db);
    viewerA = await login((await createUser(db, 'viewer', a.tenant.id)).email);
    phone = await db.channel.create({ data: { tenantId: a.tenant.id, agentId: a.agent.id, name: 'Phone', kind: 'api' } });
    const web = await createSession(db, a);
    const call = await createSession(db, { ...a, channel: phone });
    // Web on day 1: 10, 20, 30, 40, 100 ms (one failed); Phone on day 2: 500 ms.
    for (const [i, ms] of [10, 20, 30, 40, 100].entries()) await turnAt(a, web.id, `${DAY1}T10:0${i}:00Z`, ms, ms === 100);
    await turnAt(a, call.id, `${DAY2}T08:00:00Z`, 500);
    // Another tenant's turns on the same days must not move A's numbers.
    const bSession = await createSession(db, b);
    for (const ms of [1, 2, 3, 9000]) await turnAt(b, bSession.id, `${DAY1}T11:00:00Z`, ms);
  });

  it('computes p50/p95/p99 from every turn with percentile_cont, overall and per day', async () => {
    const res = await adminGet(viewerA, '/v1/admin/usage/latency', filter());
    expect(res.status).toBe(200);
    // Over 10, 20, 30, 40, 100, 500: p50 = (30 + 40) / 2; p95 at rank 4.75 = 100 + 0.75 × 400; p99 at 4.95.
    expect(res.body).toEqual({
      method: 'exact',
      turns: 6,
      p50: 35,
      p95: 400,
      p99: 480,
      byDay: [
        { day: DAY1, turns: 5, p50: 30, p95: 88 },
        { day: DAY2, turns: 1, p50: 500, p95: 500 },
      ],
    });
  });

  it('gives the summary the same exact percentiles as the latency read', async () => {
    const res = await adminGet(viewerA, '/v1/admin/usage/summary', filter());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ latencyMethod: 'exact', latencyMs: { p50: 35, p95: 400, p99: 480 } });
  });

  it('breaks turns, tokens, failures and latency down per channel', async () => {
    const res = await adminGet(viewerA, '/v1/admin/usage/channels', filter());
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { channelId: a.channel.id, channelName: 'Web', kind: 'api', turns: 5, llmCalls: 5, inputTokens: 50, outputTokens: 10, failedTurns: 1, p50: 30, p95: 88 },
      { channelId: phone.id, channelName: 'Phone', kind: 'api', turns: 1, llmCalls: 1, inputTokens: 10, outputTokens: 2, failedTurns: 0, p50: 500, p95: 500 },
    ]);
  });

  it('filters by agent, and another tenant’s agent id reads nothing of it', async () => {
    const own = await adminGet(viewerA, '/v1/admin/usage/latency', filter({ agentId: a.agent.id }));
    expect(own.body).toMatchObject({ turns: 6, p50: 35 });
    const foreign = await adminGet(viewerA, '/v1/admin/usage/latency', filter({ agentId: b.agent.id }));
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({ method: 'exact', turns: 0, p50: null, p95: null, p99: null, byDay: [] });
    const channels = await adminGet(viewerA, '/v1/admin/usage/channels', filter({ agentId: b.agent.id }));
    expect(channels.body).toEqual([]);
  });

  it('states the roll-up’s bucket bounds for long ranges, and refuses a long per-channel read', async () => {
    const long = { filter: { from: '2026-09-01', to: DAY2 } };
    const latency = await adminGet(viewerA, '/v1/admin/usage/latency', long);
    expect(latency.status).toBe(200);
    expect(latency.body).toMatchObject({ method: 'bucket-upper-bound', bucketBoundsMs: expect.arrayContaining([100]) });
    const channels = await adminGet(viewerA, '/v1/admin/usage/channels', long);
    expect(channels.status).toBe(400);
    expect(errorOf(channels.body)).toMatchObject({ code: 'range-too-long', details: { maxDays: 31 } });
  });

  it.each([
    ['no filter', {}, 'validation-failed'],
    ['a filter that is not JSON', { filter: '{from' }, 'validation-failed'],
    ['a day in another format', { filter: { from: '20/11/2026', to: DAY2 } }, 'validation-failed'],
    ['a day that does not exist', { filter: { from: '2026-02-31', to: DAY2 } }, 'validation-failed'],
    ['from after to', { filter: { from: DAY2, to: DAY1 } }, 'validation-failed'],
    ['an agent id that is not a uuid', { filter: { from: DAY1, to: DAY2, agentId: 'x' } }, 'validation-failed'],
    ['an unknown key', { filter: { from: DAY1, to: DAY2, tenantId: 'x' } }, 'validation-failed'],
  ])('answers 400 to %s', async (_, query, code) => {
    for (const path of ['/v1/admin/usage/latency', '/v1/admin/usage/channels']) {
      const res = await adminGet(viewerA, path, query);
      expect({ path, status: res.status, code: errorOf(res.body).code }).toEqual({ path, status: 400, code });
    }
  });
});

describe('archiving an agent', () => {
  it('is refused with 409 and the channels while channels use the agent, then hides it', async () => {
    const t = await createTenant(db);
    const owner = await login((await createUser(db, 'owner', t.tenant.id)).email);
    const second = await db.channel.create({ data: { tenantId: t.tenant.id, agentId: t.agent.id, name: 'Another' } });

    const refused = await adminSend(owner, 'POST', `/v1/admin/agents/${t.agent.id}/archive`);
    expect(refused.status).toBe(409);
    expect(errorOf(refused.body)).toMatchObject({
      code: 'agent-in-use',
      details: {
        channels: [
          { id: second.id, name: 'Another', kind: 'api' },
          { id: t.channel.id, name: 'Web', kind: 'api' },
        ],
      },
    });
    expect((await db.agent.findUniqueOrThrow({ where: { id: t.agent.id } })).archivedAt).toBeNull();

    await db.channel.deleteMany({ where: { agentId: t.agent.id } });
    const archived = await adminSend(owner, 'POST', `/v1/admin/agents/${t.agent.id}/archive`);
    expect(archived.status).toBe(200);
    expect((archived.body as { archivedAt: string | null }).archivedAt).toEqual(expect.any(String));

    const listed = await adminGet(owner, '/v1/admin/agents');
    expect((listed.body as { id: string }[]).map((x) => x.id)).not.toContain(t.agent.id);
    const onlyArchived = await adminGet(owner, '/v1/admin/agents', { filter: { archived: true } });
    expect((onlyArchived.body as { id: string }[]).map((x) => x.id)).toEqual([t.agent.id]);
    // References from old sessions and turns still resolve (react-admin's getMany by id).
    const byId = await adminGet(owner, '/v1/admin/agents', { filter: { id: [t.agent.id] } });
    expect((byId.body as { id: string }[]).map((x) => x.id)).toEqual([t.agent.id]);
    const badFilter = await adminGet(owner, '/v1/admin/agents', { filter: { archived: 'yes' } });
    expect(badFilter.status).toBe(400);

    const channel = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: t.agent.id, name: 'Late' });
    expect(channel.status).toBe(422);
    expect(errorOf(channel.body).code).toBe('agent-archived');

    const audit = await db.auditLog.findFirst({ where: { entityId: t.agent.id, action: 'agent.archive' } });
    expect(audit).not.toBeNull();

    const restored = await adminSend(owner, 'POST', `/v1/admin/agents/${t.agent.id}/unarchive`);
    expect(restored.status).toBe(200);
    expect((restored.body as { archivedAt: string | null }).archivedAt).toBeNull();
    expect((await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: t.agent.id, name: 'Back' })).status).toBe(201);
  });

  it('answers 404 for another tenant’s agent and 403 to a viewer, changing nothing', async () => {
    const a = await createTenant(db);
    const b = await createTenant(db);
    await db.channel.deleteMany({ where: { agentId: b.agent.id } });
    const ownerA = await login((await createUser(db, 'owner', a.tenant.id)).email);
    const viewerB = await login((await createUser(db, 'viewer', b.tenant.id)).email);
    const foreign = await adminSend(ownerA, 'POST', `/v1/admin/agents/${b.agent.id}/archive`);
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign.body).code).toBe('not-found');
    expect((await adminSend(ownerA, 'POST', '/v1/admin/agents/not-a-uuid/archive')).status).toBe(404);
    const denied = await adminSend(viewerB, 'POST', `/v1/admin/agents/${b.agent.id}/archive`);
    expect(denied.status).toBe(403);
    expect((await db.agent.findUniqueOrThrow({ where: { id: b.agent.id } })).archivedAt).toBeNull();
  });
});

describe('tenants with quotas (platform admin)', () => {
  it('creates and edits a tenant with its quotas, and refuses bad quotas', async () => {
    const slug = unique('quota');
    const created = await adminSend(platform, 'POST', '/v1/admin/tenants', { name: 'Quota Co', slug, monthlyLlmCallQuota: 1000, monthlyTokenQuota: null });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(created.body).toMatchObject({ name: 'Quota Co', slug, monthlyLlmCallQuota: 1000, monthlyTokenQuota: null });
    const edited = await adminSend(platform, 'PUT', `/v1/admin/tenants/${id}`, { name: 'Quota Co', slug, monthlyLlmCallQuota: null, monthlyTokenQuota: 50000 });
    expect(edited.body).toMatchObject({ monthlyLlmCallQuota: null, monthlyTokenQuota: 50000 });
    const negative = await adminSend(platform, 'PUT', `/v1/admin/tenants/${id}`, { monthlyTokenQuota: -1 });
    expect(negative.status).toBe(400);
    const fractional = await adminSend(platform, 'POST', '/v1/admin/tenants', { name: 'X', slug: unique('x'), monthlyLlmCallQuota: 1.5 });
    expect(fractional.status).toBe(400);
    expect((await db.tenant.findUniqueOrThrow({ where: { id } })).monthlyTokenQuota).toBe(50000n);
  });
});
