import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// Fair scheduling across tenants (issue #24, docs/fairness.md), checked by order rather than by
// time: a backlog is queued while no worker runs, then ONE worker taking one job at a time works
// it off. First-in-first-out would answer the flooding tenant's whole backlog first; fair
// scheduling takes the tenants in turn, by their weights. In both queue modes. The latency
// target itself (B's p95 under A's flood) is measured by `npm run bench -- --only=fairness`.

const echoAgent: AgentConfig = {
  ...conciergeAgentConfig,
  name: 'Echo',
  flows: [],
  fields: {},
  tools: [],
  provider: { kind: 'scripted', model: 'echo-script', scripted: { latencyMs: 0, rules: [{ call: 'speak', reply: 'eco: {{message}}' }] } },
};

jest.setTimeout(180_000);

const modes: [string, Record<string, string>][] = [
  ['Redis', {}],
  ['Postgres mode', { REDIS_URL: '' }],
];

describe.each(modes)('fair scheduling across tenants (%s)', (_mode, backendEnv) => {
  holdPostgresModeSlot(backendEnv);
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    api = await startPrivateApi({ ...backendEnv, RATE_LIMIT_KEY_PER_MINUTE: '100000', RATE_LIMIT_TENANT_PER_MINUTE: '100000' });
    prisma = testPrisma();
  });
  afterEach(async () => {
    await worker?.kill();
    worker = undefined;
  });
  afterAll(async () => {
    await api?.stop();
    await prisma?.$disconnect();
  });

  /** Posts `count` messages, one per session, one after another. */
  async function flood(fx: TenantFixture, count: number, tag: string): Promise<void> {
    for (let i = 0; i < count; i++) {
      const res = await call(api, 'POST', '/v1/messages', fx.apiKey, { session: `${tag}-${i}-${uniqueSuffix()}`, text: `${tag} ${i}` });
      expect(res.status).toBe(202);
    }
  }

  /** Starts one worker with one slot and returns the tenants of its committed turns, in order. */
  async function workOff(tenants: Map<string, string>, total: number): Promise<string[]> {
    worker = await startWorker({ ...backendEnv, QUEUE_PREFIX: api.queuePrefix, WORKER_CONCURRENCY: '1' });
    const sessions = new Map<string, string>();
    const rows = await prisma.session.findMany({ where: { tenantId: { in: [...tenants.keys()] } }, select: { id: true, tenantId: true } });
    for (const r of rows) sessions.set(r.id, tenants.get(r.tenantId)!);
    const order = () => worker!.logs.filter((l) => l.msg === 'turn committed').map((l) => sessions.get(String(l.sessionId)) ?? '?');
    return eventually(async () => order().length >= total && order(), 90_000);
  }

  it("answers a quiet tenant's messages among the first, not after a flooding tenant's backlog", async () => {
    const a = await createTenantFixture(prisma, { agentConfig: echoAgent });
    const b = await createTenantFixture(prisma, { agentConfig: echoAgent });
    await flood(a, 40, 'a');
    await flood(b, 3, 'b');

    const order = await workOff(new Map([[a.tenant.id, 'A'], [b.tenant.id, 'B']]), 43);

    // FIFO would put B at 41..43. Taken in turn: A, B, A, B, A, B.
    const lastB = order.lastIndexOf('B');
    expect(lastB).toBeLessThan(8);
    expect(order.filter((t) => t === 'B')).toHaveLength(3);
  });

  it('gives a tenant of weight 3 three turns for each of a tenant of weight 1 while both wait', async () => {
    const a = await createTenantFixture(prisma, { agentConfig: echoAgent });
    const c = await createTenantFixture(prisma, { agentConfig: echoAgent });
    await prisma.tenant.update({ where: { id: c.tenant.id }, data: { queueWeight: 3 } });
    await flood(a, 30, 'a');
    await flood(c, 30, 'c');

    const order = await workOff(new Map([[a.tenant.id, 'A'], [c.tenant.id, 'C']]), 60);

    // Per priority step: one of A's, three of C's. The first 20 turns: 5 of A, 15 of C.
    const first = order.slice(0, 20);
    expect(first.filter((t) => t === 'C').length).toBeGreaterThanOrEqual(14);
    expect(first.filter((t) => t === 'A').length).toBeGreaterThanOrEqual(4);
  });
});
