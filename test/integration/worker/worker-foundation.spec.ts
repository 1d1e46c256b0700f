import { conciergeScript } from '@falai/agent';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import { Redis } from 'ioredis';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// Issue 2's acceptance over HTTP: the API takes a message, a real worker process answers it
// with the Concierge agent, and the conversation and its Turn row are stored.

interface PostAnswer {
  messageId: string;
  sessionId: string;
  status: 'queued' | 'answered';
  replies?: { id: string; text: string }[];
}
interface SessionView {
  messages: { id: string; direction: 'inbound' | 'outbound'; status: string; text: string }[];
}

jest.setTimeout(120_000);

describe('worker: one message through API → BullMQ → worker → Postgres', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  const workers: WorkerProcess[] = [];

  async function worker(): Promise<WorkerProcess> {
    const w = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    workers.push(w);
    return w;
  }

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: conciergeAgentConfig });
  });

  // Each test runs its own worker: one left running would take the next test's jobs.
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill()));
  });

  afterAll(async () => {
    await api?.stop();
    await prisma?.$disconnect();
  });

  it('answers "Quero um quarto em Curitiba" with the Concierge price within ?wait, and stores the turn', async () => {
    const w = await worker();
    const session = `s1-${uniqueSuffix()}`;

    const res = await call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', fx.apiKey, {
      session,
      text: 'Quero um quarto em Curitiba',
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messageId: expect.any(String),
      sessionId: expect.any(String),
      status: 'answered',
      replies: [{ id: expect.any(String), text: 'A diária em Curitiba sai por R$ 420. Posso reservar?' }],
    });

    const view = await call<SessionView>(api, 'GET', `/v1/sessions/${res.body.sessionId}/messages`, fx.apiKey);
    expect(view.status).toBe(200);
    expect(view.body.messages.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'Quero um quarto em Curitiba'],
      ['outbound', 'sent', 'A diária em Curitiba sai por R$ 420. Posso reservar?'],
    ]);

    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: res.body.sessionId } });
    expect(turn.llmCalls).toBeGreaterThanOrEqual(1);
    expect(turn).toMatchObject({ provider: 'scripted', agentVersion: 1, tenantId: fx.tenant.id });
    expect(turn.outcomeCodes).toContain('spoke');
    expect(turn.totalMs).toBeGreaterThanOrEqual(turn.commitMs);
    const stored = await prisma.session.findUniqueOrThrow({ where: { id: res.body.sessionId } });
    expect(stored.version).toBe(1);
    expect(stored.state).toMatchObject({ version: 1, data: { cidade: 'Curitiba' } });

    // The next message continues the same flow: the `reservar` tool books and writes `reserva`.
    const booked = await call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', fx.apiKey, { session, text: 'Sim, pode reservar' });
    expect(booked.status).toBe(200);
    expect(booked.body.replies).toEqual([
      { id: expect.any(String), text: expect.stringMatching(/^Pronto! Sua reserva em Curitiba está confirmada\. Código: RES-[0-9A-Z]+\.$/) },
    ]);
    const after = await prisma.session.findUniqueOrThrow({ where: { id: res.body.sessionId } });
    const code = /Código: (RES-[0-9A-Z]+)/.exec(booked.body.replies![0].text)![1];
    expect(after.state).toMatchObject({ version: 2, data: { cidade: 'Curitiba', reserva: code } });

    expect(w.logs.some((l) => l.msg === 'turn committed' && l.sessionId === res.body.sessionId)).toBe(true);
  });

  it('relays the turn as deltas on the session channel before the commit event', async () => {
    const slow = await createTenantFixture(prisma, {
      agentConfig: { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs: 400 } } },
    });
    await worker();
    const posted = await call<PostAnswer>(api, 'POST', '/v1/messages', slow.apiKey, { session: `d-${uniqueSuffix()}`, text: 'Quero um quarto em Curitiba' });
    const sub = new Redis(process.env.REDIS_URL!);
    const events: SessionEvent[] = [];
    sub.on('message', (_c, payload: string) => events.push(JSON.parse(payload) as SessionEvent));
    await sub.subscribe(sessionChannel(posted.body.sessionId));
    try {
      const committed = await eventually(() => Promise.resolve(events.find((e) => e.type === 'committed')));
      const deltas = events.filter((e): e is Extract<SessionEvent, { type: 'delta' }> => e.type === 'delta');
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.every((d) => committed.type === 'committed' && d.turnId === committed.turnId)).toBe(true);
      expect(deltas.map((d) => d.delta).join('')).toContain('A diária em Curitiba sai por R$ 420. Posso reservar?');
      expect(events.indexOf(committed)).toBe(events.length - 1);
    } finally {
      await sub.quit();
    }
  });

  it('hands the session to a person with handoff_to_human, then records messages without answering them', async () => {
    const support = await createTenantFixture(prisma, {
      agentConfig: {
        provider: {
          kind: 'scripted',
          model: 'handoff-script',
          scripted: {
            rules: [
              { call: 'speak', round: 1, match: 'humano|atendente', toolCalls: [{ name: 'handoff_to_human', arguments: { motivo: 'pediu' } }] },
              { call: 'speak', afterTool: 'handoff_to_human', reply: 'Vou chamar um atendente.' },
              { call: 'speak', reply: 'Oi! Como posso ajudar?' },
            ],
          },
        },
        fields: {},
        flows: [],
        tools: ['handoff_to_human'],
      },
    });
    await worker();
    const session = `h-${uniqueSuffix()}`;

    const first = await call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', support.apiKey, { session, text: 'quero falar com um humano' });
    expect(first.body.replies).toEqual([{ id: expect.any(String), text: 'Vou chamar um atendente.' }]);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: first.body.sessionId } })).status).toBe('handed_off');

    const second = await call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', support.apiKey, { session, text: 'oi?' });
    expect(second.status).toBe(200);
    expect(second.body.replies).toEqual([]);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: second.body.sessionId }, orderBy: { createdAt: 'desc' } });
    expect(turn).toMatchObject({ outcomeCodes: ['handed-off'], llmCalls: 0 });
    expect(await prisma.message.count({ where: { sessionId: second.body.sessionId, direction: 'outbound' } })).toBe(1);
  });

  it('syncs its code tools to RegisteredTool at start-up, for the console', async () => {
    await worker();
    const tools = await prisma.registeredTool.findMany({
      where: { toolId: { in: ['preco', 'reservar', 'handoff_to_human'] } },
      orderBy: { toolId: 'asc' },
    });
    expect(tools.map((t) => [t.toolId, t.readOnly, t.destructive, t.description])).toEqual([
      ['handoff_to_human', false, true, 'Passa a conversa para um atendente humano quando a pessoa pedir ou quando você não puder ajudar.'],
      ['preco', true, false, 'Preço da diária em uma cidade.'],
      ['reservar', false, true, 'Confirma a reserva e devolve o código.'],
    ]);
    expect(tools[1].parameters).toEqual({ type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] });
  });

  it('answers a message posted while no worker runs once a worker starts', async () => {
    const session = `late-${uniqueSuffix()}`;
    const posted = await call<PostAnswer>(api, 'POST', '/v1/messages', fx.apiKey, { session, text: 'Quero um quarto em Curitiba' });
    expect(posted.status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect((await prisma.message.findUniqueOrThrow({ where: { id: posted.body.messageId } })).status).toBe('queued');

    await worker();

    const view = await eventually(async () => {
      const v = await call<SessionView>(api, 'GET', `/v1/sessions/${posted.body.sessionId}/messages`, fx.apiKey);
      return v.body.messages.length === 2 && v.body;
    });
    expect(view.messages.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'Quero um quarto em Curitiba'],
      ['outbound', 'sent', 'A diária em Curitiba sai por R$ 420. Posso reservar?'],
    ]);
    expect(await prisma.turn.count({ where: { sessionId: posted.body.sessionId } })).toBe(1);
  });

  it('stops on SIGTERM after finishing its running turn, and exits', async () => {
    // Every model call takes 1.5 s, so the signal lands in the middle of the turn.
    const slow = await createTenantFixture(prisma, {
      agentConfig: { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs: 1500 } } },
    });
    const w = await worker();
    const session = `term-${uniqueSuffix()}`;
    const posted = await call<PostAnswer>(api, 'POST', '/v1/messages', slow.apiKey, { session, text: 'Quero um quarto em Curitiba' });
    await eventually(() => Promise.resolve(w.logs.some((l) => l.msg === 'turn started' && l.messageId === posted.body.messageId)));
    expect((await prisma.message.findUniqueOrThrow({ where: { id: posted.body.messageId } })).status).toBe('queued');

    await w.stop('SIGTERM');

    expect((await prisma.message.findUniqueOrThrow({ where: { id: posted.body.messageId } })).status).toBe('answered');
    expect(await prisma.message.count({ where: { sessionId: posted.body.sessionId, direction: 'outbound' } })).toBe(1);
    expect(w.logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['worker stopping: no new jobs, finishing running turns', 'turn worker closed']));
  });
});
