import { DEFAULT_FALLBACK_MESSAGES } from '@switchboard/agent-config';
import { Test, type TestingModule } from '@nestjs/testing';
import { Redis } from 'ioredis';
import { ProviderError, type ScheduledWake } from '@falai/agent';
import { DbModule, PrismaService, recordTurnUsage, TenantQuotas } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
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
import { SessionLeaseLostError, UnderstandDeferredError } from '../../../apps/worker/src/turns/turn-errors';
import { SessionEvents } from '../../../apps/worker/src/turns/session-events';
import { WakeScheduler } from '../../../apps/worker/src/wakes/wake-scheduler';
import { FakeAgent, loadedAgent } from './support/fake-agent';
import { createSessionRows, queueInbound, unique, type SessionRows } from './support/rows';
import { retireWithoutQueue } from '../../support/worker-stand-ins';

// The worker's turn pipeline (drain → run → commit → publish) against the real Postgres and
// Redis, with a stand-in engine agent so each guarantee is driven on purpose.

jest.setTimeout(60_000);

describe('worker turn pipeline', () => {
  let mod: TestingModule;
  let prisma: PrismaService;
  let redis: Redis;
  let leases: SessionLeases;
  let current: LoadedAgent;
  // Records what the turns asked to be woken for (the real scheduler is tested with BullMQ).
  const scheduled: { sessionId: string; wakes: ScheduledWake[] }[] = [];
  const wakes = { schedule: async (_t: string, sessionId: string, w: ScheduledWake[]) => void scheduled.push({ sessionId, wakes: w }) };
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-pipe') });

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

  async function drain(rows: SessionRows, ownMessageId?: string) {
    const lease = await leases.acquire(rows.sessionId);
    try {
      return await mod.get(DrainSession).execute({ ...rows, ownMessageId, lease: lease!, stopping: () => false });
    } finally {
      await lease!.release();
    }
  }

  async function conversation(sessionId: string) {
    return prisma.message.findMany({
      where: { sessionId },
      orderBy: { seq: 'asc' },
      select: { id: true, direction: true, status: true, text: true, key: true, turnId: true },
    });
  }

  it('answers every queued message of a session in arrival order, one committed turn each', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1, m2, m3] = await queueInbound(prisma, rows, ['um', 'dois', 'três']);

    const sub = new Redis(env.REDIS_URL);
    const events: SessionEvent[] = [];
    sub.on('message', (_c, payload: string) => events.push(JSON.parse(payload) as SessionEvent));
    await sub.subscribe(sessionChannel(rows.sessionId));

    expect(await drain(rows, m2)).toEqual({ turns: 3, ownSettled: true, answered: [m1, m2, m3] });

    expect(agent.inputs.map((i) => [i.id, i.message])).toEqual([
      [m1, 'um'],
      [m2, 'dois'],
      [m3, 'três'],
    ]);
    // The third turn sees the first two exchanges, each question before its answer.
    expect(agent.inputs[2].history).toEqual([
      { role: 'user', content: 'um' },
      { role: 'assistant', content: 'eco: um (history 0)' },
      { role: 'user', content: 'dois' },
      { role: 'assistant', content: 'eco: dois (history 2)' },
    ]);
    expect(agent.inputs[1].session).toMatchObject({ version: 1, data: { turns: 1 } });
    expect(agent.inputs[2].context).toEqual({
      tenantId: rows.tenantId,
      sessionId: rows.sessionId,
      turnId: expect.any(String),
      messageId: m3,
    });

    const msgs = await conversation(rows.sessionId);
    expect(msgs.filter((m) => m.direction === 'inbound').map((m) => m.status)).toEqual(['answered', 'answered', 'answered']);
    expect(msgs.filter((m) => m.direction === 'outbound').map((m) => [m.text, m.key, m.status])).toEqual([
      ['eco: um (history 0)', `idle:${m1}`, 'sent'],
      ['eco: dois (history 2)', `idle:${m2}`, 'sent'],
      ['eco: três (history 4)', `idle:${m3}`, 'sent'],
    ]);

    const session = await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId } });
    expect(session.version).toBe(3);
    expect(session.state).toMatchObject({ version: 3, data: { turns: 3 }, inputs: [m1, m2, m3] });

    const turns = await prisma.turn.findMany({ where: { sessionId: rows.sessionId }, orderBy: { createdAt: 'asc' } });
    expect(turns).toHaveLength(3);
    expect(turns[0]).toMatchObject({
      provider: 'fake',
      model: 'fake-1',
      agentVersion: 3,
      llmCalls: 1,
      inputTokens: 100,
      outputTokens: 20,
      cachedInputTokens: 10,
      outcomeCodes: ['spoke'],
      modelMs: 7,
      toolsMs: 0,
    });
    expect(turns[0].totalMs).toBeGreaterThanOrEqual(turns[0].commitMs);
    // The daily roll-up counted the three turns in the same commits.
    const usage = await prisma.usageDaily.findMany({ where: { tenantId: rows.tenantId } });
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ agentId: rows.agentId, turns: 3, llmCalls: 3n, inputTokens: 300n, outputTokens: 60n, failedTurns: 0 });
    for (const t of turns) {
      const answered = msgs.filter((m) => m.turnId === t.id);
      expect(answered.map((m) => m.direction)).toEqual(['inbound', 'outbound']);
    }

    await new Promise((r) => setTimeout(r, 100));
    await sub.quit();
    const committedEvents = events.filter((e) => e.type === 'committed');
    expect(committedEvents.map((e) => e.type === 'committed' && e.answered)).toEqual([[m1], [m2], [m3]]);
    // Each turn's text was relayed as deltas before its commit event.
    expect(events.slice(0, 2)).toEqual([
      { type: 'delta', turnId: turns[0].id, delta: 'eco: um (history 0)' },
      { type: 'committed', turnId: turns[0].id, answered: [m1], replies: [expect.any(Object)], status: 'answered' },
    ]);
    const outbound = msgs.filter((m) => m.direction === 'outbound');
    expect(committedEvents[0]).toEqual({
      type: 'committed',
      turnId: turns[0].id,
      answered: [m1],
      replies: [{ id: outbound[0].id, text: 'eco: um (history 0)' }],
      status: 'answered',
    });
  });

  it('commits nothing twice when a message was answered by another turn meanwhile', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    const message = await prisma.message.findUniqueOrThrow({ where: { id: m1 } });
    // Another worker commits this message while our turn is still thinking.
    agent.behaviour = async (_input, result) => {
      agent.behaviour = (_i, r) => r;
      await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'messages', messages: [message] });
      return result;
    };

    expect(await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'messages', messages: [message] })).toBeNull();

    const msgs = await conversation(rows.sessionId);
    expect(msgs.map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'answered'],
      ['outbound', 'sent'],
    ]);
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(1);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId } })).version).toBe(1);
  });

  it('commits nothing when the session lease lapsed while the turn ran (issue #24: another worker may own it)', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    const message = await prisma.message.findUniqueOrThrow({ where: { id: m1 } });
    const lease = (await leases.acquire(rows.sessionId))!;
    // The lease is taken from under the turn while the model thinks (it expired and another worker took it).
    agent.behaviour = async (_input, result) => {
      await redis.set(lease.key, 'another-worker');
      await lease.renew();
      return result;
    };

    await expect(mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'messages', messages: [message] }, lease)).rejects.toBeInstanceOf(SessionLeaseLostError);

    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.status])).toEqual([['inbound', 'queued']]);
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(0);
    await redis.del(lease.key);
  });

  it('replays the turn on the fresh state when the session version moved under it', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    let calls = 0;
    agent.behaviour = async (_input, result) => {
      if (calls++ === 0) {
        // A stale save elsewhere: someone else stored version 1 while this turn ran.
        await prisma.session.update({
          where: { id: rows.sessionId },
          data: { version: 1, state: { id: rows.sessionId, version: 1, data: { turns: 41 }, runs: [], claims: {}, inputs: [], metadata: {} } },
        });
      }
      return result;
    };

    const message = await prisma.message.findUniqueOrThrow({ where: { id: m1 } });
    const committed = await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'messages', messages: [message] });

    expect(committed?.version).toBe(2);
    expect(agent.inputs).toHaveLength(2);
    expect(agent.inputs[1].session?.data).toEqual({ turns: 41 });
    const session = await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId } });
    expect(session.state).toMatchObject({ version: 2, data: { turns: 42 } });
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(1);
    expect((await conversation(rows.sessionId)).filter((m) => m.direction === 'outbound')).toHaveLength(1);
  });

  it('sends the fallback message when the provider refuses for good, and records the code', async () => {
    const agent = new FakeAgent();
    agent.behaviour = () => {
      throw new ProviderError({ kind: 'auth', message: 'invalid api key' });
    };
    current = loadedAgent(agent, { fallbackMessage: 'Estamos com instabilidade, já voltamos.' });
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    const msgs = await conversation(rows.sessionId);
    expect(msgs.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'oi'],
      ['outbound', 'sent', 'Estamos com instabilidade, já voltamos.'],
    ]);
    expect(msgs[1].key).toBe(`fallback:${m1}`);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } });
    expect(turn).toMatchObject({ outcomeCodes: ['provider-auth'], llmCalls: 1 });
  });

  it('sends the default fallback when the provider refuses for good and the agent set none (every agent has one)', async () => {
    const agent = new FakeAgent();
    agent.behaviour = () => {
      throw new ProviderError({ kind: 'context', message: 'context window exceeded' });
    };
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.direction === 'inbound' ? m.status : m.text])).toEqual([
      ['inbound', 'answered'],
      ['outbound', DEFAULT_FALLBACK_MESSAGES.en],
    ]);
    expect(await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } })).toMatchObject({
      outcomeCodes: ['provider-context'],
    });
  });

  it('appends the fallback when the engine ends a run failed with a provider code', async () => {
    const agent = new FakeAgent();
    agent.behaviour = (input, result) => ({
      ...result,
      messages: [],
      outcomes: [{ kind: 'prompt', status: 'failed', code: 'provider-quota', at: new Date().toISOString() }],
      ended: [
        {
          id: `hospedagem#${input.id}`,
          flowId: 'hospedagem',
          stepId: 'oferta',
          status: 'running',
          asked: {},
          visits: {},
          startedAt: new Date().toISOString(),
          outcomes: [],
          reason: 'failed',
          code: 'provider-quota',
        },
      ],
    });
    current = loadedAgent(agent, { fallbackMessage: 'Volto já.' });
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    const msgs = await conversation(rows.sessionId);
    expect(msgs.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'oi'],
      ['outbound', 'sent', 'Volto já.'],
    ]);
    expect(await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } })).toMatchObject({
      outcomeCodes: ['provider-quota'],
    });
  });

  it('leaves the message queued and commits nothing when the provider fails for now', async () => {
    const agent = new FakeAgent();
    agent.behaviour = () => {
      throw new ProviderError({ kind: 'overloaded', message: '503' });
    };
    current = loadedAgent(agent, { fallbackMessage: 'Volto já.' });
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    // The processor records the deferral once (a Turn row and the holding message, issue #17);
    // the drain itself commits nothing and hands it the provider's error.
    const deferred = await drain(rows, m1).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(deferred).toBeInstanceOf(UnderstandDeferredError);
    expect((deferred as UnderstandDeferredError).cause).toBeInstanceOf(ProviderError);
    expect((deferred as UnderstandDeferredError).messageIds).toEqual([m1]);

    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.status])).toEqual([['inbound', 'queued']]);
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(0);
  });

  it("queues a webhook delivery for each reply, in the commit, when the channel has a webhook", async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    await prisma.channel.update({ where: { id: rows.channelId }, data: { webhookUrl: 'https://hooks.example.invalid/sb' } });
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    const reply = await prisma.message.findFirstOrThrow({ where: { sessionId: rows.sessionId, direction: 'outbound' } });
    const deliveries = await prisma.delivery.findMany({ where: { channelId: rows.channelId } });
    expect(deliveries.map((d) => [d.messageId, d.url, d.tenantId])).toEqual([[reply.id, 'https://hooks.example.invalid/sb', rows.tenantId]]);
  });

  it('hands the wakes a turn asks for to the scheduler after the commit', async () => {
    const agent = new FakeAgent();
    const at = new Date(Date.now() + 60_000).toISOString();
    agent.behaviour = (input, result) => ({ ...result, messages: [], schedule: [{ key: `hospedagem#${input.id}:oferta:1:retry:1`, at }] });
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    expect(scheduled.filter((s) => s.sessionId === rows.sessionId)).toEqual([
      { sessionId: rows.sessionId, wakes: [{ key: `hospedagem#${m1}:oferta:1:retry:1`, at }] },
    ]);
    // The wake is also stored in the commit, for the sweeper.
    expect(await prisma.wake.findMany({ where: { sessionId: rows.sessionId }, select: { key: true, dueAt: true, status: true } })).toEqual([
      { key: `hospedagem#${m1}:oferta:1:retry:1`, dueAt: new Date(at), status: 'scheduled' },
    ]);
  });

  it('runs a wake as a turn that answers no inbound message, and commits nothing for a stale wake', async () => {
    const agent = new FakeAgent();
    agent.behaviour = (input, result) =>
      input.wake === 'stale'
        ? { ...result, changed: false, messages: [] }
        : { ...result, messages: [{ text: 'voltei', kind: 'ai', key: `${input.wake}:msg` }] };
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    for (const key of ['stale', 'w1']) {
      await prisma.wake.create({ data: { tenantId: rows.tenantId, sessionId: rows.sessionId, key, dueAt: new Date() } });
    }

    expect(await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'wake', key: 'stale', at: Date.now() })).toBeNull();
    const committed = await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'wake', key: 'w1', at: Date.now() - 1000 });

    expect(agent.inputs.map((i) => [i.wake, i.message, i.id])).toEqual([
      ['stale', undefined, undefined],
      ['w1', undefined, undefined],
    ]);
    expect(committed).toMatchObject({ answered: [], replies: [{ id: expect.any(String), text: 'voltei' }], version: 1 });
    const turns = await prisma.turn.findMany({ where: { sessionId: rows.sessionId } });
    expect(turns).toHaveLength(1);
    expect(turns[0].queueWaitMs).toBeGreaterThanOrEqual(1000);
    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.text, m.key])).toEqual([['outbound', 'voltei', 'w1:msg']]);
    const wakes = await prisma.wake.findMany({ where: { sessionId: rows.sessionId }, orderBy: { key: 'asc' } });
    expect(wakes.map((w) => [w.key, w.status, w.firedAt !== null])).toEqual([
      ['stale', 'cancelled', false],
      ['w1', 'fired', true],
    ]);
  });

  it('makes no model call for a tenant over its monthly quota: messages, wakes and flow inputs end quota-exceeded with the fallback', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent, { fallbackMessage: 'Volto já.' });
    const rows = await createSessionRows(prisma);
    await recordTurnUsage(prisma, {
      tenantId: rows.tenantId, agentId: rows.agentId, at: new Date(), llmCalls: 3, inputTokens: 10, outputTokens: 0, cachedInputTokens: 0,
      queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
    });
    await prisma.tenant.update({ where: { id: rows.tenantId }, data: { monthlyLlmCallQuota: 3n } });
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    for (const key of ['w1', 'evt:k1']) await prisma.wake.create({ data: { tenantId: rows.tenantId, sessionId: rows.sessionId, key, dueAt: new Date() } });

    await drain(rows, m1);
    await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'wake', key: 'w1', at: Date.now() });
    await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, {
      kind: 'input', key: 'evt:k1', at: Date.now(), input: { kind: 'event', event: 'paid', key: 'k1' },
    });

    expect(agent.inputs).toEqual([]);
    const turns = await prisma.turn.findMany({ where: { sessionId: rows.sessionId }, orderBy: { createdAt: 'asc' } });
    expect(turns.map((t) => [t.outcomeCodes, t.llmCalls])).toEqual([
      [['quota-exceeded'], 0],
      [['quota-exceeded'], 0],
      [['quota-exceeded'], 0],
    ]);
    expect(turns[0].outcomes).toEqual([expect.objectContaining({ status: 'failed', code: 'quota-exceeded', message: expect.stringContaining('monthly quota of 3 model calls') })]);
    const msgs = await conversation(rows.sessionId);
    expect(msgs.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'oi'],
      ['outbound', 'sent', 'Volto já.'],
      ['outbound', 'sent', 'Volto já.'],
      ['outbound', 'sent', 'Volto já.'],
    ]);
    const wakes = await prisma.wake.findMany({ where: { sessionId: rows.sessionId }, orderBy: { key: 'asc' } });
    expect(wakes.map((w) => [w.key, w.status])).toEqual([
      ['evt:k1', 'fired'],
      ['w1', 'fired'],
    ]);
  });

  it('runs no turn of a suspended tenant: a queued message ends tenant-suspended with the fallback, a wake without a reply; reactivated, the next message is answered', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent, { fallbackMessage: 'Volto já.' });
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['oi']);
    await prisma.wake.create({ data: { tenantId: rows.tenantId, sessionId: rows.sessionId, key: 'w1', dueAt: new Date() } });
    // Suspended after the message was queued, as when a platform admin acts on a busy tenant.
    await prisma.tenant.update({ where: { id: rows.tenantId }, data: { status: 'suspended' } });

    await drain(rows, m1);
    await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'wake', key: 'w1', at: Date.now() });

    expect(agent.inputs).toEqual([]);
    const turns = await prisma.turn.findMany({ where: { sessionId: rows.sessionId }, orderBy: { createdAt: 'asc' } });
    expect(turns.map((t) => [t.outcomeCodes, t.llmCalls])).toEqual([
      [['tenant-suspended'], 0],
      [['tenant-suspended'], 0],
    ]);
    expect(turns[0].outcomes).toEqual([expect.objectContaining({ status: 'failed', code: 'tenant-suspended', message: expect.stringContaining('is suspended') })]);
    // The customer who wrote hears the fallback; the wake (no one waiting) sends nothing.
    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'oi'],
      ['outbound', 'sent', 'Volto já.'],
    ]);

    await prisma.tenant.update({ where: { id: rows.tenantId }, data: { status: 'active' } });
    const [m2] = await queueInbound(prisma, rows, ['de novo']);
    await drain(rows, m2);
    expect(agent.inputs.map((i) => i.message)).toEqual(['de novo']);
    expect((await prisma.message.findUniqueOrThrow({ where: { id: m2 } })).status).toBe('answered');
  });

  it('fails a message over quota with the default fallback when the agent set none', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    await prisma.tenant.update({ where: { id: rows.tenantId }, data: { monthlyTokenQuota: 0n } });
    const [m1] = await queueInbound(prisma, rows, ['oi']);

    await drain(rows, m1);

    expect(agent.inputs).toEqual([]);
    expect((await conversation(rows.sessionId)).map((m) => [m.direction, m.direction === 'inbound' ? m.status : m.text])).toEqual([
      ['inbound', 'answered'],
      ['outbound', DEFAULT_FALLBACK_MESSAGES.en],
    ]);
    expect(await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } })).toMatchObject({ outcomeCodes: ['quota-exceeded'] });
  });

  it('stops after its own message when the worker is stopping, leaving later ones to their jobs', async () => {
    const agent = new FakeAgent();
    current = loadedAgent(agent);
    const rows = await createSessionRows(prisma);
    const [m1, m2, m3] = await queueInbound(prisma, rows, ['a', 'b', 'c']);
    const lease = await leases.acquire(rows.sessionId);
    const result = await mod
      .get(DrainSession)
      .execute({ ...rows, ownMessageId: m2, lease: lease!, stopping: () => true })
      .finally(() => lease!.release());

    expect(result).toEqual({ turns: 2, ownSettled: true, answered: [m1, m2] });
    const inbound = (await conversation(rows.sessionId)).filter((m) => m.direction === 'inbound');
    expect(inbound.map((m) => [m.id, m.status])).toEqual([
      [m1, 'answered'],
      [m2, 'answered'],
      [m3, 'queued'],
    ]);
  });
});

describe('worker turn pipeline: merge double texting', () => {
  let mod: TestingModule;
  let prisma: PrismaService;
  let redis: Redis;
  let leases: SessionLeases;
  const agent = new FakeAgent();
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-merge') });

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
        { provide: WakeScheduler, useValue: { schedule: async () => undefined } },
        {
          provide: AgentCatalog,
          useValue: { forAgent: async () => loadedAgent(agent, { doubleTexting: { policy: 'merge', mergeWindowMs: 1500 } }) },
        },
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

  it('waits for the burst to go quiet, then answers all its messages in one turn', async () => {
    const rows = await createSessionRows(prisma);
    const [m1, m2] = await queueInbound(prisma, rows, ['oi', 'quero um quarto']);
    const lease = await leases.acquire(rows.sessionId);
    const started = Date.now();
    const draining = mod.get(DrainSession).execute({ ...rows, ownMessageId: m1, lease: lease!, stopping: () => false });
    await new Promise((r) => setTimeout(r, 300));
    const [m3] = await queueInbound(prisma, rows, ['em Curitiba']);

    const result = await draining.finally(() => lease!.release());

    expect(result).toEqual({ turns: 1, ownSettled: true, answered: [m1, m2, m3] });
    // The third message restarted the quiet window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_750);
    const input = agent.inputs.at(-1)!;
    expect(input).toMatchObject({ id: m1, message: 'oi\nquero um quarto\nem Curitiba' });
    const msgs = await prisma.message.findMany({ where: { sessionId: rows.sessionId }, orderBy: { seq: 'asc' } });
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } });
    expect(msgs.map((m) => [m.direction, m.status, m.turnId])).toEqual([
      ['inbound', 'answered', turn.id],
      ['inbound', 'answered', turn.id],
      ['inbound', 'answered', turn.id],
      ['outbound', 'sent', turn.id],
    ]);
    expect(await prisma.turn.count({ where: { sessionId: rows.sessionId } })).toBe(1);
    const session = await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId } });
    expect((session.state as { inputs: string[] }).inputs).toEqual([m1, m2, m3]);
  });
});
