import { conciergeScript } from '@falai/agent';
import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// A worker killed with SIGKILL in the middle of turns: once another worker runs, every message
// is answered exactly once and no reply is stored twice. Short locks and leases make the
// recovery (BullMQ's stalled-job check, the lease's TTL) fit in a test.

// Short enough for a test, long enough that a loaded machine still renews locks in time.
const fastRecovery = { TURN_LOCK_DURATION_MS: '10000', TURN_STALLED_INTERVAL_MS: '2000', SESSION_LEASE_TTL_MS: '5000' };

const slowConcierge: AgentConfig = {
  ...conciergeAgentConfig,
  provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs: 400 } },
};

jest.setTimeout(120_000);

describe('worker: crash in the middle of turns', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: slowConcierge });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await api?.stop();
    await prisma?.$disconnect();
  });

  it('answers every message once after a SIGKILL mid-turn and a restart', async () => {
    const first = await startWorker({ QUEUE_PREFIX: api.queuePrefix, ...fastRecovery });
    workers.push(first);
    const texts = ['Quero um quarto em Curitiba', 'Sim, pode reservar', 'obrigado'];
    const sessions = [`k1-${uniqueSuffix()}`, `k2-${uniqueSuffix()}`];
    const posted: { messageId: string; sessionId: string }[] = [];
    for (const text of texts) {
      for (const session of sessions) {
        const res = await call<{ messageId: string; sessionId: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session, text });
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

    workers.push(await startWorker({ QUEUE_PREFIX: api.queuePrefix, ...fastRecovery }));
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
  });
});
