import { conciergeScript, type ScriptRule } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { QUEUES, redisConnection, TURN_JOB_OPTIONS, type TurnJobData } from '@switchboard/queue';
import { Queue } from 'bullmq';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// The customer hears the fallback or the holding message exactly once (issue #17), whichever way
// the provider fails — a rejected key (auth), a 500, a timeout, a quota without a reset — even
// when the worker running the turn is SIGKILLed in the middle of its model call and the job then
// runs again on another worker, and once more after that.

jest.setTimeout(240_000);

const FALLBACK = 'Desculpe, não consigo responder agora.';
const HOLDING = 'Um momento, já respondo.';
// Every model call takes this long, so the kill lands inside one.
const CALL_MS = 2_000;
// As worker-crash.spec: short locks and leases, so the stalled job is taken up within seconds.
const FAST_RECOVERY = { TURN_LOCK_DURATION_MS: '10000', TURN_STALLED_INTERVAL_MS: '2000', SESSION_LEASE_TTL_MS: '5000', WORKER_CONCURRENCY: '4' };

const understand = conciergeScript.rules.filter((r) => r.call === 'understand');
const speak = conciergeScript.rules.filter((r) => r.call === 'speak');

function agent(rules: ScriptRule[]): AgentConfig {
  return {
    ...conciergeAgentConfig,
    fallbackMessage: FALLBACK,
    holdingMessage: HOLDING,
    provider: { ...conciergeAgentConfig.provider, scripted: { latencyMs: CALL_MS, rules } },
  };
}

interface Case {
  label: string;
  rules: ScriptRule[];
  /** What the customer gets, once. */
  expected: { text: string; kind: string };
  fx?: TenantFixture;
  sessionId?: string;
  messageId?: string;
}

const cases: Case[] = [
  { label: 'auth (speak)', rules: [...understand, { call: 'speak', fail: { kind: 'auth', message: 'HTTP 401: bad key' } }], expected: { text: FALLBACK, kind: 'fallback' } },
  { label: 'quota (speak)', rules: [...understand, { call: 'speak', fail: { kind: 'quota', message: 'HTTP 429: out of credit' } }], expected: { text: FALLBACK, kind: 'fallback' } },
  { label: '500 (understand)', rules: [{ call: 'understand', fail: { kind: 'overloaded', message: 'HTTP 500' } }, ...speak], expected: { text: HOLDING, kind: 'holding' } },
  { label: 'timeout (speak)', rules: [...understand, { call: 'speak', fail: { kind: 'timeout', message: 'timed out' } }], expected: { text: HOLDING, kind: 'holding' } },
];

describe('fallback and holding messages across a worker crash and a retried job', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let queue: Queue<TurnJobData>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    prisma = testPrisma();
    api = await startPrivateApi();
    queue = new Queue<TurnJobData>(QUEUES.turns, { prefix: api.queuePrefix, connection: redisConnection(process.env.REDIS_URL!) });
  });

  afterAll(async () => {
    await queue?.close();
    await Promise.all(workers.map((w) => w.kill()));
    await api?.stop();
    await prisma?.$disconnect();
  });

  const outbound = (sessionId: string) =>
    prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' }, select: { text: true, kind: true } });

  /** The message's turn runs again as a job retried after a crash would: queued again, a new job. */
  async function retryJob(c: Case): Promise<void> {
    await prisma.message.update({ where: { id: c.messageId }, data: { status: 'queued', turnId: null } });
    await queue.add('turn', { tenantId: c.fx!.tenant.id, sessionId: c.sessionId!, messageId: c.messageId!, acceptedAt: Date.now() }, { ...TURN_JOB_OPTIONS, jobId: `again-${c.messageId}` });
    await eventually(async () => (await prisma.message.findUniqueOrThrow({ where: { id: c.messageId } })).status !== 'queued', 60_000);
  }

  it('auth, 500, timeout and quota: the fallback or the holding message once, after a SIGKILL mid-call and a retried job', async () => {
    for (const c of cases) c.fx = await createTenantFixture(prisma, { agentConfig: agent(c.rules) });
    const first = await startWorker({ QUEUE_PREFIX: api.queuePrefix, ...FAST_RECOVERY });
    workers.push(first);
    for (const c of cases) {
      const res = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', c.fx!.apiKey, { session: `fc-${uniqueSuffix()}`, text: 'Quero um quarto em Curitiba' });
      expect(res.status).toBe(202);
      Object.assign(c, res.body);
    }

    // Every turn is in its first model call when the worker dies: nothing was committed.
    const started = (c: Case) => first.logs.some((l) => l.msg === 'turn started' && l.sessionId === c.sessionId);
    await eventually(() => Promise.resolve(cases.every(started)), 60_000);
    await first.kill();
    const sessionIds = cases.map((c) => c.sessionId!);
    expect(await prisma.message.count({ where: { sessionId: { in: sessionIds }, direction: 'outbound' } })).toBe(0);
    expect(await prisma.turn.count({ where: { sessionId: { in: sessionIds } } })).toBe(0);

    // Another worker takes the stalled jobs up.
    const second = await startWorker({ QUEUE_PREFIX: api.queuePrefix, ...FAST_RECOVERY });
    workers.push(second);
    for (const c of cases) await eventually(async () => (await outbound(c.sessionId!)).length > 0, 90_000);

    // And each job runs once more: the fallback cases and the talk step by a retried job, the
    // understand outage by its own delayed retries (1 s, then 5 s).
    const [auth, quota, outage, timeout] = cases;
    await retryJob(auth);
    await retryJob(quota);
    await retryJob(timeout);
    const deferrals = () => second.logs.filter((l) => l.msg === 'turn deferred: provider unavailable' && l.sessionId === outage.sessionId).length;
    await eventually(() => Promise.resolve(deferrals() >= 2), 60_000);
    // The deferred talk step's own retry fails again (timeout): still no second holding message.
    const wake = await eventually(async () => (await queue.getDelayed()).find((j) => j.data.sessionId === timeout.sessionId && typeof j.data.wake === 'string'), 60_000);
    await wake.promote();
    await eventually(async () => (await prisma.turn.count({ where: { sessionId: timeout.sessionId } })) === 3, 60_000);

    for (const c of cases) {
      expect({ label: c.label, outbound: await outbound(c.sessionId!) }).toEqual({ label: c.label, outbound: [c.expected] });
    }
    // The outage is recorded once (one Turn row, the holding message's), and the message still waits for the model.
    expect(await prisma.turn.count({ where: { sessionId: outage.sessionId } })).toBe(1);
    expect((await prisma.message.findUniqueOrThrow({ where: { id: outage.messageId } })).status).toBe('queued');
    // No worker died on its own.
    await expect(Promise.race([second.exited, new Promise((r) => setTimeout(() => r('up'), 50))])).resolves.toBe('up');
  });
});
