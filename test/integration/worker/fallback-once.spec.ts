import { conciergeScript, type ScriptRule } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { QUEUES, redisConnection, TURN_JOB_OPTIONS, type TurnJobData } from '@switchboard/queue';
import { Queue } from 'bullmq';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// The customer is never answered with silence, and never told twice (issue #17, items 2 and 3):
// a provider refusing for good gives the fallback message, once, even when the job runs again;
// an outage gives the holding message, once, however often the step is deferred; `?wait` says
// `failed` or `deferred` (with `retryAt`) instead of `answered` with no replies.

const OFFER = 'A diária em Curitiba sai por R$ 420. Posso reservar?';
const FALLBACK = 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.';
const HOLDING = 'Um momento, já respondo.';
const understand = conciergeScript.rules.filter((r) => r.call === 'understand');
const speak = conciergeScript.rules.filter((r) => r.call === 'speak');

function concierge(rules: ScriptRule[], extra: Partial<AgentConfig> = {}): AgentConfig {
  return { ...conciergeAgentConfig, fallbackMessage: FALLBACK, ...extra, provider: { ...conciergeAgentConfig.provider, scripted: { rules } } };
}

interface WaitAnswer {
  messageId: string;
  sessionId: string;
  status: string;
  replies: { id: string; text: string }[];
  retryAt?: string;
}

jest.setTimeout(180_000);

describe('fallback and holding messages, exactly once', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess;
  let queue: Queue<TurnJobData>;

  beforeAll(async () => {
    prisma = testPrisma();
    api = await startPrivateApi();
    // One worker: each step of the script below happens once, in order.
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    queue = new Queue<TurnJobData>(QUEUES.turns, { prefix: api.queuePrefix, connection: redisConnection(process.env.REDIS_URL!) });
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.kill();
    await api?.stop();
    await prisma?.$disconnect();
  });

  async function postAndWait(fx: TenantFixture, session = `fo-${uniqueSuffix()}`): Promise<WaitAnswer> {
    const res = await call<WaitAnswer>(api, 'POST', '/v1/messages?wait=30', fx.apiKey, { session, text: 'Quero um quarto em Curitiba' });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function outbound(sessionId: string): Promise<{ text: string; kind: string | null }[]> {
    return prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' }, select: { text: true, kind: true } });
  }

  /** Runs the message's turn again, as a job retried after a crash would: the message queued again, a new job. */
  async function retryJob(tenantId: string, answer: WaitAnswer): Promise<void> {
    await prisma.message.update({ where: { id: answer.messageId }, data: { status: 'queued', turnId: null } });
    await queue.add('turn', { tenantId, sessionId: answer.sessionId, messageId: answer.messageId, acceptedAt: Date.now() }, { ...TURN_JOB_OPTIONS, jobId: `again-${answer.messageId}` });
    await eventually(async () => (await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).status !== 'queued', 60_000);
  }

  it.each([
    ['auth', { kind: 'auth' as const, message: 'bad key' }],
    ['quota without a reset', { kind: 'quota' as const, message: 'out of credit' }],
  ])('a provider refusing for good (%s) gives the fallback once, ?wait says failed, and a retried job sends nothing more', async (_label, fail) => {
    const fx = await createTenantFixture(prisma, { agentConfig: concierge([...understand, { call: 'speak', fail }, ...speak]) });

    const answer = await postAndWait(fx);

    expect(answer).toMatchObject({ status: 'failed', replies: [{ text: FALLBACK }] });
    await retryJob(fx.tenant.id, answer);
    expect(await outbound(answer.sessionId)).toEqual([{ text: FALLBACK, kind: 'fallback' }]);
  });

  it('an outage (500, then a timeout) gives the holding message once, ?wait says deferred, and the answer comes when the model is back', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge(
        [
          ...understand,
          { call: 'speak', fail: { kind: 'overloaded', message: 'HTTP 500' }, times: 1 },
          { call: 'speak', fail: { kind: 'timeout', message: 'timed out' }, times: 1 },
          ...speak,
        ],
        { holdingMessage: HOLDING },
      ),
    });

    const answer = await postAndWait(fx);
    expect(answer).toMatchObject({ status: 'deferred', replies: [{ text: HOLDING }], retryAt: expect.any(String) });

    // The step's retries: the first fails again (timeout), the second answers.
    for (let round = 0; round < 2; round++) {
      const job = await eventually(async () => (await queue.getDelayed()).find((j) => j.data.sessionId === answer.sessionId && typeof j.data.wake === 'string'), 60_000);
      await job.promote();
      await eventually(async () => (await prisma.turn.count({ where: { sessionId: answer.sessionId } })) === round + 2, 60_000);
    }
    expect(await outbound(answer.sessionId)).toEqual([
      { text: HOLDING, kind: 'holding' },
      { text: OFFER, kind: expect.any(String) },
    ]);
    await expect(Promise.race([worker.exited, new Promise((r) => setTimeout(() => r('up'), 50))])).resolves.toBe('up');
  });

  it('an understand call that is down makes ?wait say deferred with retryAt, and the message is answered once the model is back', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge([{ call: 'understand', fail: { kind: 'overloaded', message: 'HTTP 503' }, times: 1 }, ...understand, ...speak]),
    });

    const answer = await postAndWait(fx);

    expect(answer).toMatchObject({ status: 'deferred', replies: [], retryAt: expect.any(String) });
    const reply = await eventually(async () => (await outbound(answer.sessionId))[0], 60_000);
    expect(reply.text).toBe(OFFER);
  });

  it('an understand call down twice sends the holding message once for the deferred turn, ?wait carries it, and the answer follows', async () => {
    const fx = await createTenantFixture(prisma, {
      agentConfig: concierge([{ call: 'understand', fail: { kind: 'overloaded', message: 'HTTP 500' }, times: 2 }, ...understand, ...speak], { holdingMessage: HOLDING }),
    });

    const answer = await postAndWait(fx);

    expect(answer).toMatchObject({ status: 'deferred', replies: [{ text: HOLDING }], retryAt: expect.any(String) });
    // Deferred again at its first retry (1 s), answered at the second (5 s later): one holding message.
    await eventually(async () => (await outbound(answer.sessionId)).length === 2, 60_000);
    expect(await outbound(answer.sessionId)).toEqual([
      { text: HOLDING, kind: 'holding' },
      { text: OFFER, kind: expect.any(String) },
    ]);
    // The deferral is a Turn row of its own (health and the dashboard see the outage), recorded once.
    const turns = await prisma.turn.findMany({ where: { sessionId: answer.sessionId }, orderBy: { createdAt: 'asc' }, select: { outcomeCodes: true } });
    expect(turns.map((t) => t.outcomeCodes.includes('provider-unavailable'))).toEqual([true, false]);
    expect((await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).status).toBe('answered');
  });
});
