import { conciergeScript } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { uniqueSuffix, type TenantFixture } from '../../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../../support/worker-process';
import { call, eventually, type PrivateApi } from './private-api';

// The ordering, nothing-lost and no-duplicate scenarios, shared by the Redis suites
// (worker-burst, worker-crash) and the Postgres-mode suite (test/integration/postgres-mode).

/** The Concierge with a model that takes `latencyMs` per call, so overlapping turns would show. */
export function slowConcierge(latencyMs: number): AgentConfig {
  return { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs } } };
}

export interface ScenarioContext {
  api: PrivateApi;
  prisma: PrismaClient;
  fx: TenantFixture;
  /** Extra worker env (the backend choice); the scenario adds QUEUE_PREFIX. */
  workerEnv?: Record<string, string>;
  /** Every worker the scenario starts is added here, so the suite can kill them afterwards. */
  workers: WorkerProcess[];
}

interface PostAnswer {
  messageId: string;
  sessionId: string;
}

/** Bursts in three sessions across two worker processes: each message answered once, in order, turns never overlapping. */
export async function burstAcrossTwoWorkers(ctx: ScenarioContext): Promise<void> {
  const { api, prisma, fx } = ctx;
  const started = await Promise.all([
    startWorker({ ...ctx.workerEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
    startWorker({ ...ctx.workerEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
  ]);
  ctx.workers.push(...started);
  const texts = ['Quero um quarto em Curitiba', 'Sim, pode reservar', 'obrigado', 'mais uma coisa', 'tchau'];
  const sessions = [`b1-${uniqueSuffix()}`, `b2-${uniqueSuffix()}`, `b3-${uniqueSuffix()}`];
  // Each session's messages go out one after another (arrival order is defined), the
  // sessions at the same time.
  const posted = await Promise.all(
    sessions.map(async (session) => {
      const ids: PostAnswer[] = [];
      for (const text of texts) {
        const res = await call<PostAnswer>(api, 'POST', '/v1/messages', fx.apiKey, { session, text });
        expect(res.status).toBe(202);
        ids.push(res.body);
      }
      return ids;
    }),
  );
  const sessionIds = posted.map((p) => p[0].sessionId);

  await eventually(
    async () => (await prisma.message.count({ where: { sessionId: { in: sessionIds }, status: 'queued' } })) === 0,
    90_000,
  );

  // A worker logs "turn committed" just after its commit: wait for the last lines to arrive.
  const committedLines = () =>
    started.flatMap((w) => w.logs.filter((l) => l.msg === 'turn committed' && sessionIds.includes(String(l.sessionId))));
  await eventually(async () => committedLines().length >= sessionIds.length * texts.length, 30_000).catch(() => undefined);
  const committed = committedLines();
  for (const [i, sessionId] of sessionIds.entries()) {
    const inbound = await prisma.message.findMany({ where: { sessionId, direction: 'inbound' }, orderBy: { seq: 'asc' } });
    expect(inbound.map((m) => m.id)).toEqual(posted[i].map((p) => p.messageId));
    expect(inbound.map((m) => m.status)).toEqual(Array(texts.length).fill('answered'));

    // One turn per message, committed in arrival order, each with exactly one reply.
    const turns = await prisma.turn.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, include: { messages: true } });
    expect(turns).toHaveLength(texts.length);
    expect(turns.map((t) => t.messages.find((m) => m.direction === 'inbound')?.id)).toEqual(inbound.map((m) => m.id));
    for (const t of turns) expect(t.messages.filter((m) => m.direction === 'outbound')).toHaveLength(1);
    const replies = turns.map((t) => t.messages.find((m) => m.direction === 'outbound')!.text);
    expect(replies[0]).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
    expect(replies[1]).toMatch(/^Pronto! Sua reserva em Curitiba está confirmada\. Código: RES-/);
    expect(await prisma.message.count({ where: { sessionId, direction: 'outbound' } })).toBe(texts.length);

    // The spans of this session's turns, from both processes' logs, never overlap.
    const spans = committed
      .filter((l) => l.sessionId === sessionId)
      .map((l) => ({ start: Number(l.startedAt), end: Number(l.at) }))
      .sort((a, b) => a.start - b.start);
    expect(spans).toHaveLength(texts.length);
    for (let k = 1; k < spans.length; k++) expect(spans[k].start).toBeGreaterThanOrEqual(spans[k - 1].end);
  }
}

// Short enough for a test, long enough that a loaded machine still renews locks in time.
const fastRecovery = { TURN_LOCK_DURATION_MS: '10000', TURN_STALLED_INTERVAL_MS: '2000', SESSION_LEASE_TTL_MS: '5000' };

/**
 * A worker SIGKILLed in the middle of turns (model calls of 400 ms; see slowConcierge): once
 * another worker runs, every message is answered exactly once, in order, no reply stored twice.
 */
export async function crashMidTurn(ctx: ScenarioContext): Promise<void> {
  const { api, prisma, fx } = ctx;
  const first = await startWorker({ ...ctx.workerEnv, QUEUE_PREFIX: api.queuePrefix, ...fastRecovery });
  ctx.workers.push(first);
  const texts = ['Quero um quarto em Curitiba', 'Sim, pode reservar', 'obrigado'];
  const sessions = [`k1-${uniqueSuffix()}`, `k2-${uniqueSuffix()}`];
  const posted: PostAnswer[] = [];
  for (const text of texts) {
    for (const session of sessions) {
      const res = await call<PostAnswer>(api, 'POST', '/v1/messages', fx.apiKey, { session, text });
      posted.push(res.body);
    }
  }
  const sessionIds = [...new Set(posted.map((p) => p.sessionId))];

  // Kill it while a turn is in flight (each model call takes 400 ms).
  await eventually(() => Promise.resolve(first.logs.some((l) => l.msg === 'turn started')));
  await new Promise((r) => setTimeout(r, 300));
  await first.kill();
  const answeredBeforeCrash = await prisma.message.count({ where: { sessionId: { in: sessionIds }, direction: 'inbound', status: 'answered' } });
  expect(answeredBeforeCrash).toBeLessThan(posted.length);

  ctx.workers.push(await startWorker({ ...ctx.workerEnv, QUEUE_PREFIX: api.queuePrefix, ...fastRecovery }));
  await eventually(
    async () => (await prisma.message.count({ where: { sessionId: { in: sessionIds }, status: 'queued' } })) === 0,
    60_000,
  );

  for (const sessionId of sessionIds) {
    const inbound = await prisma.message.findMany({ where: { sessionId, direction: 'inbound' }, orderBy: { seq: 'asc' } });
    expect(inbound.map((m) => m.status)).toEqual(['answered', 'answered', 'answered']);
    const outbound = await prisma.message.findMany({ where: { sessionId, direction: 'outbound' } });
    expect(outbound).toHaveLength(3);
    expect(new Set(outbound.map((m) => m.key)).size).toBe(3);
    const turns = await prisma.turn.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, include: { messages: true } });
    expect(turns).toHaveLength(3);
    // Still in arrival order: each turn answered the next message.
    expect(turns.map((t) => t.messages.find((m) => m.direction === 'inbound')?.id)).toEqual(inbound.map((m) => m.id));
    expect(turns[0].messages.find((m) => m.direction === 'outbound')?.text).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
  }
}
