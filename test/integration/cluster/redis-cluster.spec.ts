import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { clusterUnavailable, startRedisCluster, type RedisCluster } from '../../support/redis-cluster';
import { SseClient } from '../../support/sse-client';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { burstAcrossTwoWorkers, crashMidTurn, slowConcierge, type ScenarioContext } from '../worker/support/guarantee-scenarios';
import { call, startPrivateApi, type PrivateApi } from '../worker/support/private-api';

// The guarantees on a real Redis Cluster (issue #24): three masters started here from the
// machine's redis-server, REDIS_URL=redis+cluster://… for the API and the workers. Ingest,
// ordering across two workers with the session leases, a SIGKILL mid-turn, `?wait` and SSE over
// cluster pub/sub, and the rate limits, as the single-Redis suites check them. Skipped (with the
// reason) only on a machine without redis-server; CI has it, and there a missing one fails.

const missing = clusterUnavailable();
if (missing && process.env.CI) throw new Error(`The Redis Cluster suite needs redis-server in CI: ${missing}`);
const suite = missing ? describe.skip : describe;
if (missing) process.stdout.write(`Redis Cluster suite skipped: ${missing}\n`);

jest.setTimeout(240_000);

suite('on a Redis Cluster of three masters', () => {
  let cluster: RedisCluster;
  let prisma: PrismaClient;
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    env = { REDIS_URL: cluster.url };
    prisma = testPrisma();
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await cluster?.stop();
  });

  describe('ordering, leases and nothing lost', () => {
    let ctx: ScenarioContext;

    afterEach(async () => {
      await Promise.all(ctx?.workers.map((w) => w.kill()) ?? []);
      await ctx?.api.stop();
    });

    it('answers each message of a burst once, in order, one turn of a session at a time, across two workers', async () => {
      ctx = { api: await startPrivateApi(env), prisma, fx: await createTenantFixture(prisma, { agentConfig: slowConcierge(40) }), workerEnv: env, workers: [] };
      await burstAcrossTwoWorkers(ctx);
      // The work really went through the cluster: its keys are spread over more than one master.
      const sizes = await Promise.all(cluster.ports.map(async (p) => Number(await cluster.cli(p, 'dbsize'))));
      expect(sizes.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    });

    it('answers every message once after a SIGKILL mid-turn and a restart', async () => {
      ctx = { api: await startPrivateApi(env), prisma, fx: await createTenantFixture(prisma, { agentConfig: slowConcierge(400) }), workerEnv: env, workers: [] };
      await crashMidTurn(ctx);
    });
  });

  describe('?wait, SSE and rate limits', () => {
    let api: PrivateApi;
    let fx: TenantFixture;
    let worker: WorkerProcess;
    const streams: SseClient[] = [];

    beforeAll(async () => {
      api = await startPrivateApi({ ...env, RATE_LIMIT_KEY_PER_MINUTE: '6' });
      fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(0) });
      worker = await startWorker({ ...env, QUEUE_PREFIX: api.queuePrefix });
    });
    afterAll(async () => {
      for (const s of streams) s.close();
      await worker?.kill();
      await api?.stop();
    });

    it('answers ?wait with the reply and streams the next one over SSE', async () => {
      const session = `cw-${uniqueSuffix()}`;
      const first = await call<{ sessionId: string; status: string; replies: { text: string }[] }>(api, 'POST', '/v1/messages?wait=20', fx.apiKey, {
        session,
        text: 'Quero um quarto em Curitiba',
      });
      expect(first.status).toBe(200);
      expect(first.body.replies.map((r) => r.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);

      const sse = new SseClient();
      streams.push(sse);
      await sse.open(`${api.baseUrl}/v1/sessions/${first.body.sessionId}/stream`, fx.apiKey);
      const second = await call<{ messageId: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session, text: 'Sim, pode reservar' });
      expect(second.status).toBe(202);
      const committed = await sse.until(() => sse.events.find((e) => e.event === 'committed'));
      expect(committed.data).toMatchObject({ answered: [second.body.messageId], status: 'answered' });
    });

    it('counts the per-key ingest limit in the cluster and answers 429 rate-limited past it', async () => {
      const own = await createTenantFixture(prisma, {});
      const statuses: number[] = [];
      let refusal: { error?: { code?: string } } | undefined;
      for (let i = 0; i < 7; i++) {
        const res = await call<{ error?: { code?: string } }>(api, 'POST', '/v1/messages', own.apiKey, { session: `cr-${uniqueSuffix()}`, text: 'oi' });
        statuses.push(res.status);
        if (res.status === 429) refusal = res.body;
      }
      expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 429]);
      expect(refusal?.error?.code).toBe('rate-limited');
    });
  });
});
