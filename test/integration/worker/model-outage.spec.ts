import { conciergeScript, type ProviderErrorKind, type ScriptJson, type ScriptRule } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createBullQueue, QUEUES, type TurnJobData } from '@switchboard/queue';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// A model outage never takes a worker down (issue #17, item 0). The Concierge has a flow, so
// every turn starts with an understand call; when that call fails for now the job is put back
// delayed (TurnProcessor.retryLater). That used to kill the worker with an unhandled
// `DelayedError: bullmq:movedToDelayed`: the delayed promise rejected while the lease was being
// released in `finally`, before anything awaited it. Both queue modes, two workers each: every
// understand and speak failure kind leaves both running, and the message is answered once the
// model is back (or, for a refusal no wait can fix, given the fallback).

const OFFER = 'A diária em Curitiba sai por R$ 420. Posso reservar?';
const FALLBACK = 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.';
const TRANSIENT: ProviderErrorKind[] = ['overloaded', 'rate-limited', 'timeout', 'network', 'empty', 'unknown'];
const PERMANENT: ProviderErrorKind[] = ['auth', 'invalid', 'context'];

function withRules(rules: ScriptRule[]): AgentConfig {
  return { ...conciergeAgentConfig, fallbackMessage: FALLBACK, provider: { ...conciergeAgentConfig.provider, scripted: { rules } as ScriptJson } };
}

/** The model fails its understand calls `times` times (per worker process), then answers as the Concierge. */
function understandDown(kind: ProviderErrorKind, times?: number, extra: Partial<NonNullable<ScriptRule['fail']>> = {}): AgentConfig {
  return withRules([{ call: 'understand', fail: { kind, message: `understand ${kind}`, ...extra }, ...(times !== undefined && { times }) }, ...conciergeScript.rules]);
}

/** The model fails its first speak call, then answers as the Concierge. */
function speakDown(kind: ProviderErrorKind, extra: Partial<NonNullable<ScriptRule['fail']>> = {}): AgentConfig {
  const understand = conciergeScript.rules.filter((r) => r.call === 'understand');
  const speak = conciergeScript.rules.filter((r) => r.call === 'speak');
  return withRules([...understand, { call: 'speak', fail: { kind, message: `speak ${kind}`, ...extra }, times: 1 }, ...speak]);
}

interface PostAnswer {
  messageId: string;
  sessionId: string;
}

jest.setTimeout(240_000);

describe.each([
  ['Redis', {} as Record<string, string>],
  ['Postgres', { REDIS_URL: '' }],
])('model outage, %s queue mode', (_mode, backendEnv) => {
  holdPostgresModeSlot(backendEnv);
  let api: PrivateApi;
  let prisma: PrismaClient;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    prisma = testPrisma();
    api = await startPrivateApi(backendEnv);
    workers.push(
      ...(await Promise.all([
        startWorker({ ...backendEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
        startWorker({ ...backendEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
      ])),
    );
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await api?.stop();
    await prisma?.$disconnect();
  });

  /** One tenant per agent config, made one after another (the test pool is small), then their messages posted at once. */
  async function postEach<K>(cases: { kind: K; config: AgentConfig }[]): Promise<{ kind: K; answer: PostAnswer }[]> {
    const tenants: { kind: K; fx: TenantFixture }[] = [];
    for (const c of cases) tenants.push({ kind: c.kind, fx: await createTenantFixture(prisma, { agentConfig: c.config }) });
    return Promise.all(tenants.map(async ({ kind, fx }) => ({ kind, answer: await post(fx) })));
  }

  async function post(fx: TenantFixture, text = 'Quero um quarto em Curitiba'): Promise<PostAnswer> {
    const res = await call<PostAnswer>(api, 'POST', '/v1/messages', fx.apiKey, { session: `mo-${uniqueSuffix()}`, text });
    expect(res.status).toBe(202);
    return res.body;
  }

  async function outbound(sessionId: string): Promise<string[]> {
    const rows = await prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' }, select: { text: true } });
    return rows.map((r) => r.text);
  }

  it('answers once the model is back, for each kind of understand failure, and both workers stay up', async () => {
    // Once per worker process: the job is deferred once or twice (1 s, then 5 s) before it gets
    // through, on either worker. (Twice per worker made up to four deferrals, 81 s of the retry
    // ladder, which turn-failure.spec.ts checks rung by rung.)
    const cases = await postEach([
      ...TRANSIENT.map((kind) => ({ kind, config: understandDown(kind, 1) })),
      { kind: 'quota' as const, config: understandDown('quota', 1, { resetAt: new Date(Date.now() + 1_500).toISOString() }) },
    ]);

    for (const { kind, answer } of cases) {
      const texts = await eventually(async () => {
        const got = await outbound(answer.sessionId);
        return got.length > 0 && got;
      }, 90_000).catch(() => [`${kind}: no reply`]);
      expect({ kind, texts }).toEqual({ kind, texts: [OFFER] });
      const inbound = await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } });
      expect(inbound.status).toBe('answered');
    }
    expect(workers.some((w) => w.logs.some((l) => l.msg === 'turn deferred: provider unavailable'))).toBe(true);
    await expectRunning(workers);
  });

  it('gives the fallback once when the understand call is refused for good, and both workers stay up', async () => {
    const cases = await postEach(PERMANENT.map((kind) => ({ kind, config: understandDown(kind) })));
    for (const { kind, answer } of cases) {
      await eventually(async () => (await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).status !== 'queued', 60_000);
      expect({ kind, texts: await outbound(answer.sessionId) }).toEqual({ kind, texts: [FALLBACK] });
    }
    await expectRunning(workers);
  });

  it('answers through the step retry once the model is back, for each kind of speak failure, and both workers stay up', async () => {
    const env = { QUEUE_BACKEND: backendEnv.REDIS_URL === '' ? ('postgres' as const) : ('redis' as const), REDIS_URL: process.env.REDIS_URL!, DATABASE_URL: process.env.DATABASE_URL!, QUEUE_PREFIX: api.queuePrefix };
    const queue = createBullQueue<TurnJobData>(QUEUES.turns, env);
    try {
      const cases = await postEach([
        ...TRANSIENT.map((kind) => ({ kind, config: speakDown(kind) })),
        // A quota that resets is waited for like an outage.
        { kind: 'quota' as const, config: speakDown('quota', { resetAt: new Date(Date.now() + 90_000).toISOString() }) },
      ]);
      for (const { kind, answer } of cases) {
        // The step is deferred: its retry waits as a delayed wake job (a minute away), made due
        // now. Each worker's model fails once, so a retry may be deferred again: repeat.
        const texts = await eventually(async () => {
          const got = await outbound(answer.sessionId);
          if (got.length > 0) return got;
          const job = (await queue.getDelayed()).find((j) => j.data.sessionId === answer.sessionId && typeof j.data.wake === 'string');
          await job?.promote().catch(() => undefined);
          await new Promise((r) => setTimeout(r, 300));
          return undefined;
        }, 60_000).catch(() => [`${kind}: no reply`]);
        expect({ kind, texts }).toEqual({ kind, texts: [OFFER] });
      }
    } finally {
      await queue.close();
    }
    await expectRunning(workers);
  });

});

/** Every worker process is still up, and none logged a crash. */
async function expectRunning(workers: WorkerProcess[]): Promise<void> {
  const stillUp = Symbol('up');
  const states = await Promise.all(workers.map((w) => Promise.race([w.exited, new Promise<symbol>((r) => setTimeout(() => r(stillUp), 100))])));
  expect(states).toEqual(workers.map(() => stillUp));
  for (const w of workers) {
    expect(w.logs.filter((l) => l.level === 'fatal' || /uncaught|unhandled/i.test(String(l.msg ?? '')))).toEqual([]);
  }
}
