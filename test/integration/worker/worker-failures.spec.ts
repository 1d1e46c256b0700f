import { conciergeScript, type ScriptJson } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { Queue } from 'bullmq';
import { QUEUES, redisConnection } from '@switchboard/queue';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// Provider failures through the real worker process: a model that refuses for good ends the
// run, the customer gets the agent's fallback message, and the Turn row carries the code; a
// model that is down for now defers the step and sends nothing. The worker keeps running.

const FALLBACK = 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.';
const understandRules = conciergeScript.rules.filter((r) => r.call === 'understand');

function concierge(script: ScriptJson, fallbackMessage: string | null = FALLBACK): AgentConfig {
  const { fallbackMessage: _omit, ...rest } = conciergeAgentConfig;
  void _omit;
  return {
    ...rest,
    ...(fallbackMessage !== null && { fallbackMessage }),
    provider: { ...conciergeAgentConfig.provider, scripted: script },
  };
}

interface PostAnswer {
  messageId: string;
  sessionId: string;
  status: 'queued' | 'answered' | 'failed' | 'deferred';
  replies?: { id: string; text: string }[];
  retryAt?: string;
}

jest.setTimeout(120_000);

describe('worker: provider failures', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess;

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
  });

  afterAll(async () => {
    await worker?.kill();
    await api?.stop();
    await prisma?.$disconnect();
  });

  async function post(fx: TenantFixture, text = 'Quero um quarto em Curitiba'): Promise<PostAnswer> {
    const res = await call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', fx.apiKey, { session: `f-${uniqueSuffix()}`, text });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('sends the fallback message when every call is refused (auth), and records provider-auth', async () => {
    const fx = await createTenantFixture(prisma, { agentConfig: concierge({ rules: [{ fail: { kind: 'auth', message: 'bad key' } }] }) });

    const answer = await post(fx);

    expect(answer).toMatchObject({ status: 'failed', replies: [{ id: expect.any(String), text: FALLBACK }] });
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: answer.sessionId } });
    expect(turn.outcomeCodes).toEqual(['provider-auth']);
    expect(turn.llmCalls).toBe(1);
  });

  it('sends the fallback message when the speak call is refused (invalid) and the run ends failed', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge({ rules: [...understandRules, { call: 'speak', fail: { kind: 'invalid', message: 'model not found' } }] }),
    });

    const answer = await post(fx);

    expect(answer.replies).toEqual([{ id: expect.any(String), text: FALLBACK }]);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: answer.sessionId } });
    expect(turn.outcomeCodes).toContain('provider-invalid');
    expect(turn.llmCalls).toBe(2);
  });

  it('sends the default fallback in the agent\'s language when the provider refuses for good and none is set', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge({ rules: [{ fail: { kind: 'context' } }] }, null),
    });

    const answer = await post(fx);

    // The Concierge's texts are Portuguese: the Portuguese default.
    expect(answer).toMatchObject({ status: 'failed', replies: [{ id: expect.any(String), text: 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.' }] });
    expect((await prisma.turn.findFirstOrThrow({ where: { sessionId: answer.sessionId } })).outcomeCodes).toEqual(['provider-context']);
  });

  it('defers the step without a reply when the speak call fails for now, and stays up', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge({ rules: [...understandRules, { call: 'speak', fail: { kind: 'overloaded' } }] }),
    });

    const answer = await post(fx);

    // ?wait says the answer comes later, and when it is tried again.
    expect(answer).toMatchObject({ status: 'deferred', replies: [], retryAt: expect.any(String) });
    expect(Date.parse(answer.retryAt!)).toBeGreaterThan(Date.now() + 30_000);
    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: answer.sessionId } });
    expect(turn.outcomeCodes).toContain('provider-unavailable');
    const session = await prisma.session.findUniqueOrThrow({ where: { id: answer.sessionId } });
    expect((session.state as { runs: { status: string; waiting?: { key: string } }[] }).runs).toEqual([
      expect.objectContaining({ status: 'waiting', waiting: expect.objectContaining({ key: expect.stringContaining(':retry:') }) }),
    ]);

    // Still answering other tenants.
    const ok = await createTenantFixture(prisma, { agentConfig: conciergeAgentConfig });
    expect((await post(ok)).replies).toEqual([{ id: expect.any(String), text: 'A diária em Curitiba sai por R$ 420. Posso reservar?' }]);
  });

  it('retries a deferred step through its wake job, which answers later', async () => {
    const speakRules = conciergeScript.rules.filter((r) => r.call === 'speak');
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge({ rules: [...understandRules, { call: 'speak', fail: { kind: 'timeout' }, times: 1 }, ...speakRules] }),
    });
    const queue = new Queue(QUEUES.turns, { prefix: api.queuePrefix, connection: redisConnection(process.env.REDIS_URL!) });
    try {
      const answer = await post(fx);
      expect(answer.replies).toEqual([]);

      // The engine's first rung is one minute away; the job waits delayed, keyed by the wake.
      const job = await eventually(async () =>
        (await queue.getDelayed()).find((j) => j.data.sessionId === answer.sessionId && typeof j.data.wake === 'string'),
      );
      expect(job.data.wake).toMatch(/^hospedagem#.+:oferta:1:retry:\d+$/);
      expect(job.opts.delay).toBeGreaterThan(50_000);
      await job.promote();

      const reply = await eventually(() =>
        prisma.message.findFirst({ where: { sessionId: answer.sessionId, direction: 'outbound' } }),
      );
      expect(reply.text).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
      const turns = await prisma.turn.findMany({ where: { sessionId: answer.sessionId }, orderBy: { createdAt: 'asc' } });
      expect(turns.map((t) => t.outcomeCodes.includes('provider-unavailable'))).toEqual([true, false]);
      expect(turns[1].outcomeCodes).toContain('spoke');
    } finally {
      await queue.close();
    }
  });
});
