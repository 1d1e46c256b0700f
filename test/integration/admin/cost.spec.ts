import { generateApiKey, recordTurnUsage, type PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, apiUrl, createTenant, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

// Cost over the admin API (issue 25, docs/cost.md): the roll-up grouped by agent, model,
// channel, flow, step and day, its CSV, and the price tables, each kept to the caller's tenant.

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'viewer' | 'owner'>>>;
let platform: Awaited<ReturnType<typeof tenantWithUsers<'platform_admin'>>>;
let other: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let secondAgent: { id: string };
let secondChannel: { id: string };

type Line = { agentId: string; channelId: string; day: string; model?: string; part: string; flowId?: string; stepId?: string; llmCalls: number; costMicros: number; slot?: number };

async function roll(t: { tenant: { id: string } }, lines: Line[]) {
  for (const l of lines) {
    await db.usageCostDaily.create({
      data: {
        tenantId: t.tenant.id, agentId: l.agentId, channelId: l.channelId, day: new Date(`${l.day}T00:00:00Z`), slot: l.slot ?? 0,
        provider: 'openai', model: l.model ?? 'gpt-4.1-mini', part: l.part, flowId: l.flowId ?? '', stepId: l.stepId ?? '',
        llmCalls: BigInt(l.llmCalls), inputTokens: BigInt(l.llmCalls * 100), outputTokens: BigInt(l.llmCalls * 10), costMicros: BigInt(l.costMicros),
      },
    });
  }
}

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['viewer', 'owner'] as const);
  platform = await tenantWithUsers(db, ['platform_admin'] as const);
  other = await tenantWithUsers(db, ['owner'] as const);
  await db.agent.update({ where: { id: world.agent.id }, data: { name: 'Concierge' } });
  secondAgent = await db.agent.create({ data: { tenantId: world.tenant.id, name: 'Vendas' } });
  secondChannel = await db.channel.create({ data: { tenantId: world.tenant.id, agentId: secondAgent.id, name: 'WhatsApp' } });
  const a = { agentId: world.agent.id, channelId: world.channel.id };
  const b = { agentId: secondAgent.id, channelId: secondChannel.id };
  await roll(world, [
    // The confirmation step is 40% of the bill: 4000 of 10000 micros.
    { ...a, day: '2026-11-30', part: 'step', flowId: 'reserva', stepId: 'confirmar', llmCalls: 4, costMicros: 4000 },
    // Two slots of one group: read as one.
    { ...a, day: '2026-11-30', part: 'step', flowId: 'reserva', stepId: 'datas', llmCalls: 1, costMicros: 1000 },
    { ...a, day: '2026-11-30', part: 'step', flowId: 'reserva', stepId: 'datas', llmCalls: 1, costMicros: 1000, slot: 3 },
    { ...a, day: '2026-12-01', part: 'understand', llmCalls: 2, costMicros: 1500 },
    { ...b, day: '2026-12-01', model: 'gpt-4.1', part: 'idle', llmCalls: 1, costMicros: 2500 },
  ]);
  // Another tenant's spend: never in the world's answers.
  const o = { agentId: other.agent.id, channelId: other.channel.id };
  await roll(other, [{ ...o, day: '2026-12-01', part: 'step', flowId: 'reserva', stepId: 'confirmar', llmCalls: 9, costMicros: 999_000 }]);
});
afterAll(() => db.$disconnect());

type Breakdown = { by: string; totalMicros: string; rows: { key: Record<string, string>; label: string; llmCalls: number; costMicros: string; share: number }[] };
const breakdown = async (token: string, query: Record<string, string>) => {
  const res = await adminGet(token, '/v1/admin/usage-cost', query);
  expect(res.status).toBe(200);
  return res.body as Breakdown;
};
const brief = (b: Breakdown) => b.rows.map((r) => [r.label, r.costMicros, r.llmCalls, r.share]);

describe('cost roll-ups', () => {
  it('splits cost by step and flow, the dearest first, with each share of the total', async () => {
    const step = await breakdown(world.tokens.viewer, { by: 'step' });
    expect(step.totalMicros).toBe('10000');
    expect(brief(step)).toEqual([
      ['reserva › confirmar', '4000', 4, 0.4],
      ['(idle)', '2500', 1, 0.25],
      ['reserva › datas', '2000', 2, 0.2],
      ['(understand)', '1500', 2, 0.15],
    ]);
    const flow = await breakdown(world.tokens.viewer, { by: 'flow' });
    expect(brief(flow)).toEqual([
      ['reserva', '6000', 6, 0.6],
      ['(idle)', '2500', 1, 0.25],
      ['(understand)', '1500', 2, 0.15],
    ]);
  });

  it('groups by agent, channel and model by name, and by day within a range', async () => {
    expect(brief(await breakdown(world.tokens.viewer, { by: 'agent' }))).toEqual([
      ['Concierge', '7500', 8, 0.75],
      ['Vendas', '2500', 1, 0.25],
    ]);
    expect(brief(await breakdown(world.tokens.viewer, { by: 'channel' })).map((r) => r[0])).toEqual(['Web', 'WhatsApp']);
    expect(brief(await breakdown(world.tokens.viewer, { by: 'model' }))).toEqual([
      ['openai/gpt-4.1-mini', '7500', 8, 0.75],
      ['openai/gpt-4.1', '2500', 1, 0.25],
    ]);
    expect(brief(await breakdown(world.tokens.viewer, { by: 'day', from: '2026-12-01', to: '2026-12-31' }))).toEqual([['2026-12-01', '4000', 3, 1]]);
    expect((await breakdown(world.tokens.viewer, { by: 'step', agentId: secondAgent.id })).totalMicros).toBe('2500');
  });

  it("never shows another tenant's cost, even asked for by its agent's id", async () => {
    const theirs = await breakdown(other.tokens.owner, { by: 'step' });
    expect(theirs.totalMicros).toBe('999000');
    expect(brief(theirs)).toEqual([['reserva › confirmar', '999000', 9, 1]]);
    // The world's agent asked for by another tenant's user: nothing.
    expect((await breakdown(other.tokens.owner, { by: 'agent', agentId: world.agent.id })).rows).toEqual([]);
  });

  it('exports the roll-up as CSV, one line per day, agent, channel, model and step, amounts exact', async () => {
    const res = await fetch(apiUrl('/v1/admin/usage-cost/export?from=2026-11-30&to=2026-11-30'), { headers: { authorization: `Bearer ${world.tokens.viewer}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('day,agentId,agent,channelId,channel,provider,model,part,flowId,stepId,llmCalls,inputTokens,cachedInputTokens,outputTokens,unpricedCalls,costMicros,cost');
    expect(lines.slice(1)).toEqual([
      `2026-11-30,${world.agent.id},Concierge,${world.channel.id},Web,openai,gpt-4.1-mini,step,reserva,confirmar,4,400,0,40,0,4000,0.004000`,
      `2026-11-30,${world.agent.id},Concierge,${world.channel.id},Web,openai,gpt-4.1-mini,step,reserva,datas,2,200,0,20,0,2000,0.002000`,
    ]);
  });

  it('answers 400 to a bad grouping, day or parameter', async () => {
    for (const query of [{ by: 'tenant' }, {}, { by: 'step', from: '2026-13-01' }, { by: 'step', from: '0000-01-01' }, { by: 'step', agentId: 'nope' }, { by: 'step', sort: 'x' }]) {
      const res = await adminGet(world.tokens.viewer, '/v1/admin/usage-cost', query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });
});

describe('price tables', () => {
  const price = (model: string, extra: Record<string, unknown> = {}) => ({ provider: 'openai', model, input: '0.40', cachedInput: '0.10', output: '1.60', ...extra });

  it('lets every role read the seeded, dated list prices, exact as decimal strings', async () => {
    const res = await adminGet(world.tokens.viewer, '/v1/admin/model-prices', { filter: { provider: 'openai', model: 'gpt-4.1-mini' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ provider: 'openai', model: 'gpt-4.1-mini', currency: 'USD', input: '0.400000', cachedInput: '0.100000', output: '1.600000', effectiveFrom: '2025-04-14T00:00:00.000Z', source: expect.stringContaining('openai.com') }),
    ]);
  });

  it('lets only a platform admin add a list price, audited, and refuses a bad amount or a duplicate date', async () => {
    const model = unique('gpt-test');
    expect((await adminSend(world.tokens.owner, 'POST', '/v1/admin/model-prices', price(model))).status).toBe(403);
    const created = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/model-prices', price(model, { effectiveFrom: '2026-12-15T00:00:00Z' }));
    expect(created.status).toBe(201);
    const row = created.body as { id: string; input: string };
    expect(row.input).toBe('0.400000');
    expect(await db.auditLog.count({ where: { action: 'model-price.create', entityId: row.id } })).toBe(1);

    const again = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/model-prices', price(model, { effectiveFrom: '2026-12-15T00:00:00Z' }));
    expect(again.status).toBe(409);
    for (const bad of [price(model, { input: '-1' }), price(model, { output: '0.1234567' }), price(model, { currency: 'EUR' }), { provider: 'openai' }, price(model, { extra: 1 })]) {
      const res = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/model-prices', bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    const edited = await adminSend(platform.tokens.platform_admin, 'PUT', `/v1/admin/model-prices/${row.id}`, { output: '2' });
    expect(edited.body).toMatchObject({ output: '2.000000', input: '0.400000' });
  });

  it("keeps a tenant's negotiated prices to that tenant", async () => {
    const model = unique('deal');
    const created = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/tenant-model-prices', { ...price(model), tenantId: world.tenant.id });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(await db.auditLog.count({ where: { action: 'tenant-model-price.create', entityId: id, tenantId: world.tenant.id } })).toBe(1);

    const mine = await adminGet(world.tokens.viewer, '/v1/admin/tenant-model-prices', { filter: { model } });
    expect((mine.body as { id: string }[]).map((r) => r.id)).toEqual([id]);
    const theirs = await adminGet(other.tokens.owner, '/v1/admin/tenant-model-prices', { filter: { model } });
    expect(theirs.body).toEqual([]);
    const read = await adminGet(other.tokens.owner, `/v1/admin/tenant-model-prices/${id}`);
    expect(read.status).toBe(404);
    expect(errorOf(read.body).code).toBe('not-found');

    const unknownTenant = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/tenant-model-prices', { ...price(model), tenantId: '00000000-0000-4000-8000-0000000000aa' });
    expect(unknownTenant.status).toBe(404);
    const noTenant = await adminSend(platform.tokens.platform_admin, 'POST', '/v1/admin/tenant-model-prices', price(model));
    expect({ status: noTenant.status, code: errorOf(noTenant.body).code }).toEqual({ status: 400, code: 'tenant-required' });
  });
});

describe('monthly money budgets', () => {
  /** A tenant with an API key whose month so far cost `micros`, as the worker's roll-up holds it. */
  async function tenantThatSpent(micros: bigint) {
    const t = await createTenant(db);
    const key = generateApiKey();
    await db.apiKey.create({ data: { tenantId: t.tenant.id, channelId: t.channel.id, prefix: key.prefix, keyHash: key.hash } });
    await recordTurnUsage(db, {
      tenantId: t.tenant.id, agentId: t.agent.id, at: new Date(), llmCalls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
      queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
    });
    await db.usageDaily.updateMany({ where: { tenantId: t.tenant.id }, data: { costMicros: micros } });
    return { ...t, key: key.key };
  }

  it('lets a platform admin set a budget in USD, exact, and refuses a bad one', async () => {
    const t = await createTenant(db);
    const set = await adminSend(platform.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${t.tenant.id}`, { monthlyBudget: '250.50' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ monthlyBudget: '250.500000' });
    expect((await db.tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).monthlyBudgetMicros).toBe(250_500_000n);
    for (const bad of ['-1', '1.0000001', 'ten', true]) {
      const res = await adminSend(platform.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${t.tenant.id}`, { monthlyBudget: bad });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    const cleared = await adminSend(platform.tokens.platform_admin, 'PUT', `/v1/admin/tenants/${t.tenant.id}`, { monthlyBudget: null });
    expect(cleared.body).toMatchObject({ monthlyBudget: null });
  });

  it('shows the month against the budget, with the 80% warning', async () => {
    const t = await tenantThatSpent(8_500_000n);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyBudgetMicros: 10_000_000n } });
    const res = await adminGet(platform.tokens.platform_admin, '/v1/admin/usage/quota', { tenantId: t.tenant.id });
    expect(res.body).toMatchObject({ cost: { used: 8_500_000, quota: 10_000_000 }, budgetWarning: true, exceeded: null });
  });

  it("refuses a message once the budget is spent with 429 quota-exceeded and the agent's fallback message, keeping the message", async () => {
    const t = await tenantThatSpent(10_000_000n);
    await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyBudgetMicros: 10_000_000n } });
    await db.agent.update({ where: { id: t.agent.id }, data: { config: { fallbackMessage: 'Volto já.' } } });
    const res = await fetch(apiUrl('/v1/messages'), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: unique('s'), text: 'over budget' }),
    });
    expect(res.status).toBe(429);
    const error = ((await res.json()) as { error: { code: string; message: string; details: { quota: string; limit: number; messageId: string } } }).error;
    // The agent's fallback message comes with the refusal, for the integrator to show the customer.
    expect(error).toMatchObject({ code: 'quota-exceeded', details: { quota: 'cost', limit: 10_000_000, fallbackMessage: 'Volto já.' } });
    expect(error.message).toContain('monthly budget of 10.000000 USD');
    expect(await db.message.findUniqueOrThrow({ where: { id: error.details.messageId } })).toMatchObject({ status: 'failed', kind: 'quota-exceeded' });
    // The first verdict at or past 80% gave the month's notice.
    expect(await db.auditLog.count({ where: { tenantId: t.tenant.id, action: 'budget.warning' } })).toBe(1);
  });

  describe("an agent's own budget", () => {
    /** A second agent of `t` with its own channel and API key. */
    async function secondAgentOf(t: { tenant: { id: string } }) {
      const agent = await db.agent.create({ data: { tenantId: t.tenant.id, name: 'Vendas' } });
      const channel = await db.channel.create({ data: { tenantId: t.tenant.id, agentId: agent.id, name: 'api' } });
      const key = generateApiKey();
      await db.apiKey.create({ data: { tenantId: t.tenant.id, channelId: channel.id, prefix: key.prefix, keyHash: key.hash } });
      return { agent, key: key.key };
    }
    const post = (key: string, text: string) =>
      fetch(apiUrl('/v1/messages'), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session: unique('s'), text }),
      });

    it("lets the tenant's owner set it in USD, exact and audited, and refuses a bad one or a viewer", async () => {
      const path = `/v1/admin/agents/${world.agent.id}`;
      const set = await adminSend(world.tokens.owner, 'PUT', path, { monthlyBudget: '12.5' });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ id: world.agent.id, monthlyBudget: '12.500000' });
      expect((await db.agent.findUniqueOrThrow({ where: { id: world.agent.id } })).monthlyBudgetMicros).toBe(12_500_000n);
      expect((await adminGet(world.tokens.viewer, path)).body).toMatchObject({ monthlyBudget: '12.500000' });
      const audit = await db.auditLog.findFirstOrThrow({ where: { entityId: world.agent.id, action: 'agent.update' }, orderBy: { createdAt: 'desc' } });
      expect(audit.after).toMatchObject({ monthlyBudget: '12.500000' });
      for (const bad of ['-1', '1.0000001', 'ten', true]) {
        const res = await adminSend(world.tokens.owner, 'PUT', path, { monthlyBudget: bad });
        expect({ bad, status: res.status, code: errorOf(res.body).code }).toEqual({ bad, status: 400, code: 'validation-failed' });
      }
      expect((await adminSend(world.tokens.viewer, 'PUT', path, { monthlyBudget: '1' })).status).toBe(403);
      const cleared = await adminSend(world.tokens.owner, 'PUT', path, { monthlyBudget: null });
      expect(cleared.body).toMatchObject({ monthlyBudget: null });
    });

    it("shows each agent's month against its budget, with the 80% warning, and gives the agent's notice once", async () => {
      const t = await tenantThatSpent(8_500_000n);
      await db.agent.update({ where: { id: t.agent.id }, data: { monthlyBudgetMicros: 10_000_000n } });
      const res = await adminGet(platform.tokens.platform_admin, '/v1/admin/usage/quota', { tenantId: t.tenant.id });
      expect(res.body).toMatchObject({
        cost: { quota: null },
        exceeded: null,
        agents: [{ agentId: t.agent.id, name: 'Agent', used: 8_500_000, quota: 10_000_000, warning: true, exceeded: false }],
      });
      // A message checks the agent's budget: under it, accepted; the 80% notice is given once.
      expect((await post(t.key, 'still under')).status).toBe(202);
      expect((await post(t.key, 'again')).status).toBe(202);
      const notices = await db.auditLog.findMany({ where: { tenantId: t.tenant.id, action: 'budget.warning' }, select: { entityType: true, entityId: true, actorType: true } });
      expect(notices).toEqual([{ entityType: 'agent', entityId: t.agent.id, actorType: 'system' }]);
    });

    it("refuses the spent agent's messages with quota-exceeded and its fallback message while another agent of the tenant answers", async () => {
      const t = await tenantThatSpent(2_000_000n);
      const other = await secondAgentOf(t);
      await db.agent.update({ where: { id: t.agent.id }, data: { monthlyBudgetMicros: 2_000_000n, config: { fallbackMessage: 'Volto já.' } } });
      const refused = await post(t.key, 'over the agent budget');
      expect(refused.status).toBe(429);
      const error = ((await refused.json()) as { error: { code: string; message: string; details: { messageId: string } } }).error;
      expect(error).toMatchObject({ code: 'quota-exceeded', details: { quota: 'agentCost', agentId: t.agent.id, limit: 2_000_000, fallbackMessage: 'Volto já.' } });
      expect(error.message).toContain('The agent has used its monthly budget of 2.000000 USD');
      expect(await db.message.findUniqueOrThrow({ where: { id: error.details.messageId } })).toMatchObject({ status: 'failed', kind: 'quota-exceeded' });
      expect((await post(other.key, 'the other agent')).status).toBe(202);
    });
  });
});
