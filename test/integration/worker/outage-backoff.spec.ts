import { conciergeScript, type ScriptJson } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// A session whose model is down waits as one (docs/reliability.md, "A down model, one call per
// step"). Four messages wait in one session while the understand call fails for 3 s: the session
// is deferred once per step of the retry ladder (1 s, then 5 s), by whichever of its jobs holds
// the lease, and its other jobs wait for that retry instead of calling the model on a ladder of
// their own. Before, each of the four jobs made its own calls: 8 or more deferrals in those 3 s.

const MESSAGES = 4;
const OUTAGE_MS = 3_000;

function understandDownFor(ms: number): AgentConfig {
  const rules = [{ call: 'understand' as const, fail: { kind: 'overloaded' as const, message: 'understand overloaded' }, withinMs: ms }, ...conciergeScript.rules];
  return { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { rules } as ScriptJson } };
}

jest.setTimeout(120_000);

describe.each([
  ['Redis', {} as Record<string, string>],
  ['Postgres', { REDIS_URL: '' }],
])('a model outage with several messages waiting, %s queue mode', (_mode, backendEnv) => {
  holdPostgresModeSlot(backendEnv);
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    prisma = testPrisma();
    api = await startPrivateApi(backendEnv);
  });

  afterAll(async () => {
    await worker?.kill();
    await api?.stop();
    await prisma?.$disconnect();
  });

  it("calls the model once per step of the ladder for the whole session, then answers every message in order", async () => {
    const fx = await createTenantFixture(prisma, { agentConfig: understandDownFor(OUTAGE_MS) });
    const session = `ob-${uniqueSuffix()}`;
    // Every message waits before any worker runs: all four jobs are there when the model fails.
    const ids: string[] = [];
    for (let i = 1; i <= MESSAGES; i++) {
      const res = await call<{ messageId: string; sessionId: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session, text: `Quero um quarto em Curitiba (${i})` });
      expect(res.status).toBe(202);
      ids.push(res.body.messageId);
    }
    const sessionId = (await prisma.message.findUniqueOrThrow({ where: { id: ids[0] } })).sessionId;
    worker = await startWorker({ ...backendEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' });

    await eventually(async () => (await prisma.message.count({ where: { id: { in: ids }, status: 'answered' } })) === MESSAGES, 60_000);

    const deferrals = worker.logs.filter((l) => l.msg === 'turn deferred: provider unavailable' && l.sessionId === sessionId);
    // The calls in the outage: at its start, then 1 s later (one slack for a slow machine). Each
    // deferral climbed the session's ladder, whichever job made it.
    expect(deferrals.length).toBeGreaterThanOrEqual(1);
    expect(deferrals.length).toBeLessThanOrEqual(3);
    expect(deferrals.map((d) => d.retries)).toEqual(deferrals.map((_, i) => i));
    expect(worker.logs.some((l) => l.msg === 'turn deferred: provider unavailable' && l.sessionId !== sessionId)).toBe(false);

    // Answered in order, once each: one turn per message (the sequential policy), and the backoff
    // ended with the first commit.
    const inbound = await prisma.message.findMany({ where: { sessionId, direction: 'inbound' }, orderBy: { seq: 'asc' }, select: { id: true, turnId: true } });
    expect(inbound.map((m) => m.id)).toEqual(ids);
    const turns = await prisma.turn.findMany({ where: { id: { in: inbound.map((m) => m.turnId!) } }, orderBy: { createdAt: 'asc' }, select: { id: true } });
    expect(turns.map((t) => t.id)).toEqual(inbound.map((m) => m.turnId));
  });
});
