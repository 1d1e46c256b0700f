import { Test, type TestingModule } from '@nestjs/testing';
import { Redis } from 'ioredis';
import type { ScheduledWake, TraceEntry } from '@falai/agent';
import { callCostMicros, DbModule, PrismaService, QUOTA_CACHE_MS, TenantQuotas } from '@switchboard/db';
import { AgentCatalog, type LoadedAgent } from '../../../apps/worker/src/agents/agent-catalog';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisLeaseStore } from '../../../apps/worker/src/lease/redis-lease-store';
import { SessionLeases } from '../../../apps/worker/src/lease/session-lease';
import { sessionLeasesProvider } from '../../../apps/worker/src/lease/session-leases.provider';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { CommitTurn } from '../../../apps/worker/src/turns/commit-turn';
import { DrainSession } from '../../../apps/worker/src/turns/drain-session';
import { LoadTurnState } from '../../../apps/worker/src/turns/load-turn-state';
import { AgentModelHealth } from '../../../apps/worker/src/turns/agent-model-health';
import { RunTurn } from '../../../apps/worker/src/turns/run-turn';
import { SessionEvents } from '../../../apps/worker/src/turns/session-events';
import { WakeScheduler } from '../../../apps/worker/src/wakes/wake-scheduler';
import { FakeAgent, loadedAgent } from './support/fake-agent';
import { createSessionRows, queueInbound, unique, type SessionRows } from './support/rows';
import { retireWithoutQueue } from '../../support/worker-stand-ins';

// Cost at commit (issue 25, docs/cost.md): the worker prices each model call of a turn at the
// price table in force and the commit stores it on the turn, the session, and both roll-ups.

jest.setTimeout(60_000);

const RUN = { runId: 'reserva#m1', flowId: 'reserva', stepId: 'confirmar' };
// An understand call, a speak call for the run's step (most of its input cached), an idle speak call.
const TRACE: TraceEntry[] = [
  { type: 'model', call: 'understand', round: 0, ms: 5, usage: { inputTokens: 1000, outputTokens: 50 } },
  { type: 'model', call: 'speak', round: 1, ms: 5, usage: { inputTokens: 2000, cachedInputTokens: 1500, outputTokens: 100 }, spentBy: RUN },
  { type: 'model', call: 'speak', round: 2, ms: 5, usage: { inputTokens: 300, outputTokens: 30 } },
];
// gpt-4.1-mini as seeded: $0.40 input, $0.10 cached input, $1.60 output per million tokens.
// understand 1000*0.40 + 50*1.60 = 480; step 500*0.40 + 1500*0.10 + 100*1.60 = 510; idle 300*0.40 + 30*1.60 = 168.
const CALL_MICROS = [480, 510, 168];

describe('cost at commit', () => {
  let mod: TestingModule;
  let prisma: PrismaService;
  let redis: Redis;
  let leases: SessionLeases;
  let current: LoadedAgent;
  const wakes = { schedule: async (_t: string, _s: string, _w: ScheduledWake[]) => undefined };
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-cost') });

  beforeAll(async () => {
    mod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL }), RedisModule],
      providers: [
        CommitTurn,
        LoadTurnState,
        SessionEvents,
        RunTurn,
        AgentModelHealth,
        TenantQuotas,
        DrainSession,
        sessionLeasesProvider,
        retireWithoutQueue(),
        { provide: AgentCatalog, useValue: { forAgent: async () => current } },
        { provide: WakeScheduler, useValue: wakes },
      ],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
    redis = new Redis(env.REDIS_URL);
    leases = new SessionLeases(new RedisLeaseStore(redis), { prefix: env.QUEUE_PREFIX, ttlMs: 10_000 });
  });

  afterAll(async () => {
    await redis.quit();
    await mod.close();
  });

  async function drain(rows: SessionRows) {
    const lease = await leases.acquire(rows.sessionId);
    try {
      return await mod.get(DrainSession).execute({ ...rows, lease: lease!, stopping: () => false });
    } finally {
      await lease!.release();
    }
  }

  function agentOn(provider: { name: string; model: string }, trace: TraceEntry[] = TRACE, fallbackMessage?: string): FakeAgent {
    const agent = new FakeAgent();
    agent.behaviour = (_i, r) => ({ ...r, llmCalls: trace.length, trace: structuredClone(trace) });
    current = { ...loadedAgent(agent, fallbackMessage ? { fallbackMessage } : {}), provider };
    return agent;
  }

  async function costRows(tenantId: string) {
    return prisma.usageCostDaily.findMany({
      where: { tenantId },
      select: { part: true, flowId: true, stepId: true, provider: true, model: true, llmCalls: true, inputTokens: true, cachedInputTokens: true, outputTokens: true, costMicros: true, unpricedCalls: true },
      orderBy: [{ part: 'asc' }],
    });
  }

  it("stores each call's cost at the table's price, the turn's and conversation's sum, and the roll-ups split by step", async () => {
    agentOn({ name: 'openai', model: 'gpt-4.1-mini' });
    const rows = await createSessionRows(prisma);
    await queueInbound(prisma, rows, ['um', 'dois']);
    expect(await drain(rows)).toMatchObject({ turns: 2 });

    const turns = await prisma.turn.findMany({ where: { sessionId: rows.sessionId }, select: { costMicros: true, unpricedCalls: true, trace: true } });
    expect(turns).toHaveLength(2);
    for (const t of turns) {
      expect(t.costMicros).toBe(1158n);
      expect(t.unpricedCalls).toBe(0);
      expect((t.trace as { costMicros?: number }[]).map((e) => e.costMicros)).toEqual(CALL_MICROS);
    }
    // The same arithmetic the table's row gives, read back from the table itself.
    const price = await prisma.modelPrice.findFirstOrThrow({ where: { provider: 'openai', model: 'gpt-4.1-mini' } });
    expect(TRACE.map((e) => (e.type === 'model' ? callCostMicros(e.usage!, price) : 0n))).toEqual(CALL_MICROS.map(BigInt));

    const session = await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId }, select: { costMicros: true } });
    expect(session.costMicros).toBe(2316n);
    const daily = await prisma.usageDaily.aggregate({ where: { tenantId: rows.tenantId }, _sum: { costMicros: true, unpricedCalls: true } });
    expect(daily._sum).toEqual({ costMicros: 2316n, unpricedCalls: 0n });

    const base = { provider: 'openai', model: 'gpt-4.1-mini', llmCalls: 2n, unpricedCalls: 0n };
    expect(await costRows(rows.tenantId)).toEqual([
      { ...base, part: 'idle', flowId: '', stepId: '', inputTokens: 600n, cachedInputTokens: 0n, outputTokens: 60n, costMicros: 336n },
      { ...base, part: 'step', flowId: 'reserva', stepId: 'confirmar', inputTokens: 4000n, cachedInputTokens: 3000n, outputTokens: 200n, costMicros: 1020n },
      { ...base, part: 'understand', flowId: '', stepId: '', inputTokens: 2000n, cachedInputTokens: 0n, outputTokens: 100n, costMicros: 960n },
    ]);
  });

  it('keeps the roll-ups equal to the turn rows when many sessions of a tenant commit at once', async () => {
    agentOn({ name: 'openai', model: 'gpt-4.1-mini' });
    const first = await createSessionRows(prisma);
    const sessions = [first];
    for (let i = 0; i < 5; i += 1) {
      const s = await prisma.session.create({ data: { tenantId: first.tenantId, channelId: first.channelId, agentId: first.agentId, externalKey: unique('s') } });
      sessions.push({ ...first, sessionId: s.id });
    }
    for (const [i, rows] of sessions.entries()) await queueInbound(prisma, rows, Array.from({ length: 1 + (i % 3) }, (_, k) => `m${k}`));
    await Promise.all(sessions.map((rows) => drain(rows)));

    const where = { tenantId: first.tenantId };
    const [turns, convs, daily, costs] = await Promise.all([
      prisma.turn.aggregate({ where, _sum: { costMicros: true }, _count: true }),
      prisma.session.aggregate({ where, _sum: { costMicros: true } }),
      prisma.usageDaily.aggregate({ where, _sum: { costMicros: true, llmCalls: true } }),
      prisma.usageCostDaily.aggregate({ where, _sum: { costMicros: true, llmCalls: true } }),
    ]);
    expect(turns._count).toBe(12);
    expect(turns._sum.costMicros).toBe(12n * 1158n);
    expect([convs._sum.costMicros, daily._sum.costMicros, costs._sum.costMicros]).toEqual([turns._sum.costMicros, turns._sum.costMicros, turns._sum.costMicros]);
    expect(costs._sum.llmCalls).toBe(daily._sum.llmCalls);
  });

  it("prices at the tenant's negotiated price once it is in force", async () => {
    agentOn({ name: 'openai', model: 'gpt-4.1-mini' });
    const rows = await createSessionRows(prisma);
    // Half the list price for input, free output; a later row that is not yet in force changes nothing.
    const deal = { tenantId: rows.tenantId, provider: 'openai', model: 'gpt-4.1-mini', inputPerMillionMicros: 200_000n, cachedInputPerMillionMicros: 50_000n, outputPerMillionMicros: 0n };
    await prisma.tenantModelPrice.create({ data: { ...deal, effectiveFrom: new Date(Date.now() - 60_000) } });
    await prisma.tenantModelPrice.create({ data: { ...deal, outputPerMillionMicros: 99_000_000n, effectiveFrom: new Date(Date.now() + 86_400_000) } });
    await queueInbound(prisma, rows, ['um']);
    await drain(rows);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId }, select: { costMicros: true } });
    // understand 1000*0.20 = 200; step 500*0.20 + 1500*0.05 = 175; idle 300*0.20 = 60.
    expect(turn.costMicros).toBe(435n);
  });

  it('counts a model without a price as 0 and flags each of its calls', async () => {
    agentOn({ name: 'openai', model: `unheard-of-${unique('m')}` });
    const rows = await createSessionRows(prisma);
    await queueInbound(prisma, rows, ['um']);
    await drain(rows);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId }, select: { costMicros: true, unpricedCalls: true, trace: true } });
    expect(turn).toMatchObject({ costMicros: 0n, unpricedCalls: 3 });
    expect((turn.trace as { unpriced?: boolean }[]).every((e) => e.unpriced === true)).toBe(true);
    const daily = await prisma.usageDaily.aggregate({ where: { tenantId: rows.tenantId }, _sum: { costMicros: true, unpricedCalls: true } });
    expect(daily._sum).toEqual({ costMicros: 0n, unpricedCalls: 3n });
  });

  it("prices the scripted provider's models at 0 without flagging them", async () => {
    agentOn({ name: 'scripted', model: 'concierge-demo' });
    const rows = await createSessionRows(prisma);
    await queueInbound(prisma, rows, ['um']);
    await drain(rows);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId }, select: { costMicros: true, unpricedCalls: true, inputTokens: true } });
    expect(turn).toMatchObject({ costMicros: 0n, unpricedCalls: 0 });
    expect(turn.inputTokens).toBeGreaterThan(0);
  });

  it('warns once at 80% of the money budget and refuses the next turn at 100% with the fallback message', async () => {
    const agent = agentOn({ name: 'openai', model: 'gpt-4.1-mini' }, TRACE, 'Volto já.');
    const rows = await createSessionRows(prisma);
    // 2600 micros a month: two turns (2316) pass 80% (2080), a third (3474) passes the budget.
    await prisma.tenant.update({ where: { id: rows.tenantId }, data: { monthlyBudgetMicros: 2600n } });
    // Verdicts are cached for QUOTA_CACHE_MS: wait it out between messages, as a conversation's pace does.
    const next = async (text: string) => {
      await new Promise((r) => setTimeout(r, QUOTA_CACHE_MS + 100));
      await queueInbound(prisma, rows, [text]);
      await drain(rows);
    };
    await queueInbound(prisma, rows, ['um', 'dois']);
    await drain(rows);
    await next('três');
    const warnings = () => prisma.auditLog.findMany({ where: { tenantId: rows.tenantId, action: 'budget.warning' }, select: { actorType: true, after: true } });
    expect(await warnings()).toEqual([{ actorType: 'system', after: expect.objectContaining({ usedMicros: 2316, budgetMicros: 2600 }) }]);
    expect(agent.inputs).toHaveLength(3);

    await next('quatro');
    expect(agent.inputs).toHaveLength(3); // no engine run, so no model call
    const msgs = await prisma.message.findMany({ where: { sessionId: rows.sessionId }, orderBy: { seq: 'asc' }, select: { direction: true, status: true, text: true } });
    expect(msgs.slice(-2)).toEqual([
      { direction: 'inbound', status: 'answered', text: 'quatro' },
      { direction: 'outbound', status: 'sent', text: 'Volto já.' },
    ]);
    const last = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId }, orderBy: { createdAt: 'desc' }, select: { outcomeCodes: true, costMicros: true } });
    expect(last).toEqual({ outcomeCodes: ['quota-exceeded'], costMicros: 0n });
    // The notice is given once a month, not again at 100%.
    expect(await warnings()).toHaveLength(1);
  });

  it("refuses the next turn of an agent whose own budget is reached mid-conversation, with its fallback message, while another agent of the tenant answers", async () => {
    const agent = agentOn({ name: 'openai', model: 'gpt-4.1-mini' }, TRACE, 'Volto já.');
    const rows = await createSessionRows(prisma);
    // A second agent of the same tenant, with its own channel and conversation, and no budget of its own.
    const vendas = await prisma.agent.create({ data: { tenantId: rows.tenantId, name: 'Vendas' } });
    const channel = await prisma.channel.create({ data: { tenantId: rows.tenantId, agentId: vendas.id, name: 'web' } });
    const session = await prisma.session.create({ data: { tenantId: rows.tenantId, channelId: channel.id, agentId: vendas.id, externalKey: unique('s') } });
    const other: SessionRows = { tenantId: rows.tenantId, agentId: vendas.id, channelId: channel.id, sessionId: session.id };
    // 2000 micros a month for the first agent: one turn (1158) is under 80% (1600), two (2316) spend it.
    await prisma.agent.update({ where: { id: rows.agentId }, data: { monthlyBudgetMicros: 2000n } });
    const next = async (on: SessionRows, text: string) => {
      await new Promise((r) => setTimeout(r, QUOTA_CACHE_MS + 100)); // the cached verdict expires, as a conversation's pace lets it
      await queueInbound(prisma, on, [text]);
      await drain(on);
    };
    await queueInbound(prisma, rows, ['um']);
    await drain(rows);
    await next(rows, 'dois');
    expect(agent.inputs).toHaveLength(2);

    await next(rows, 'três');
    expect(agent.inputs).toHaveLength(2); // refused before the engine: no model call
    const msgs = await prisma.message.findMany({ where: { sessionId: rows.sessionId }, orderBy: { seq: 'asc' }, select: { direction: true, status: true, text: true } });
    expect(msgs.slice(-2)).toEqual([
      { direction: 'inbound', status: 'answered', text: 'três' },
      { direction: 'outbound', status: 'sent', text: 'Volto já.' },
    ]);
    const last = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId }, orderBy: { createdAt: 'desc' }, select: { outcomeCodes: true, costMicros: true } });
    expect(last).toEqual({ outcomeCodes: ['quota-exceeded'], costMicros: 0n });
    // The agent's notice, not the tenant's: the tenant has no budget.
    const notices = await prisma.auditLog.findMany({ where: { tenantId: rows.tenantId, action: 'budget.warning' }, select: { entityType: true, entityId: true, after: true } });
    expect(notices).toEqual([{ entityType: 'agent', entityId: rows.agentId, after: expect.objectContaining({ usedMicros: 2316, budgetMicros: 2000 }) }]);

    // The tenant's other agent still answers: its turn runs the engine and costs as any other.
    await queueInbound(prisma, other, ['olá']);
    await drain(other);
    expect(agent.inputs).toHaveLength(3);
    const answered = await prisma.turn.findFirstOrThrow({ where: { sessionId: other.sessionId }, select: { outcomeCodes: true, costMicros: true } });
    expect(answered.costMicros).toBe(1158n);
    expect(answered.outcomeCodes).not.toContain('quota-exceeded');
  });

  it("never answers one tenant with a verdict on another tenant's agent, even from its cache", async () => {
    const mine = await createSessionRows(prisma);
    const theirs = await createSessionRows(prisma);
    // A budget of zero is spent from the start.
    await prisma.agent.update({ where: { id: mine.agentId }, data: { monthlyBudgetMicros: 0n } });
    const quotas = mod.get(TenantQuotas);
    expect((await quotas.verdict(mine.tenantId, mine.agentId)).exceeded).toBeTruthy();
    // Another tenant naming that agent gets nothing of it: no budget applies, cached or not.
    expect((await quotas.verdict(theirs.tenantId, mine.agentId)).exceeded).toBeFalsy();
  });
});
