import { conciergeScript } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// Bursts of messages in a session, with two worker processes competing for the jobs: each
// message is answered once, in arrival order, and no two turns of one session ever overlap.

// The Concierge with a model that takes a while, so overlapping turns would show.
const slowConcierge: AgentConfig = {
  ...conciergeAgentConfig,
  provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs: 40 } },
};

interface PostAnswer {
  messageId: string;
  sessionId: string;
}

jest.setTimeout(120_000);

describe('worker: bursts across two worker processes', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: slowConcierge });
    workers = await Promise.all([
      startWorker({ QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
      startWorker({ QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '4' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await api?.stop();
    await prisma?.$disconnect();
  });

  it('answers each message of a burst once, in order, one turn of a session at a time', async () => {
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

    const committed = workers.flatMap((w) => w.logs.filter((l) => l.msg === 'turn committed'));
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
  });
});
