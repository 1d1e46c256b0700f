import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { burstAcrossTwoWorkers, crashMidTurn, slowConcierge, type ScenarioContext } from '../worker/support/guarantee-scenarios';
import { call, startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// The worker pipeline's guarantees in Postgres mode: the API and the workers run with REDIS_URL
// unset, so the queue is BullMQ's Postgres backend, `?wait` listens with LISTEN/NOTIFY, and
// session leases, the sweeper's lock and rate limits are rows. Same scenarios as the Redis suites.

// Unset, as on a laptop with only Node: the apps must not need Redis at all.
const POSTGRES_MODE = { REDIS_URL: '' };

jest.setTimeout(180_000);

describe('Postgres mode (REDIS_URL unset)', () => {
  holdPostgresModeSlot(POSTGRES_MODE);
  let prisma: PrismaClient;

  beforeAll(() => {
    prisma = testPrisma();
  });
  afterAll(async () => {
    await prisma?.$disconnect();
  });

  describe('ordering and no duplicates', () => {
    let ctx: ScenarioContext;

    beforeAll(async () => {
      const api = await startPrivateApi(POSTGRES_MODE);
      const fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(40) });
      ctx = { api, prisma, fx, workerEnv: POSTGRES_MODE, workers: [] };
    });
    afterAll(async () => {
      await Promise.all(ctx?.workers.map((w) => w.kill()) ?? []);
      await ctx?.api.stop();
    });

    it('answers each message of a burst once, in order, one turn of a session at a time, across two workers', async () => {
      await burstAcrossTwoWorkers(ctx);
      expect(ctx.workers.every((w) => w.logs.some((l) => l.msg === 'worker ready' && l.backend === 'postgres'))).toBe(true);
    });
  });

  describe('nothing lost', () => {
    let ctx: ScenarioContext;

    beforeAll(async () => {
      const api = await startPrivateApi(POSTGRES_MODE);
      const fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(400) });
      ctx = { api, prisma, fx, workerEnv: POSTGRES_MODE, workers: [] };
    });
    afterAll(async () => {
      await Promise.all(ctx?.workers.map((w) => w.kill()) ?? []);
      await ctx?.api.stop();
    });

    it('answers every message once after a SIGKILL mid-turn and a restart', async () => {
      await crashMidTurn(ctx);
    });
  });

  describe('?wait and rate limits', () => {
    let api: PrivateApi;
    let fx: TenantFixture;
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      // Tight ingest limits, so the Postgres counters show within a few requests.
      api = await startPrivateApi({ ...POSTGRES_MODE, RATE_LIMIT_KEY_PER_MINUTE: '6' });
      fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(0) });
    });
    afterAll(async () => {
      await Promise.all(workers.map((w) => w.kill()));
      await api?.stop();
    });

    it('answers ?wait with the reply, delivered by LISTEN/NOTIFY', async () => {
      workers.push(await startWorker({ ...POSTGRES_MODE, QUEUE_PREFIX: api.queuePrefix }));
      const res = await call<{ status: string; replies: { text: string }[] }>(api, 'POST', '/v1/messages?wait=20', fx.apiKey, {
        session: `w-${uniqueSuffix()}`,
        text: 'Quero um quarto em Curitiba',
      });
      expect(res.status).toBe(200);
      expect(res.body.replies.map((r) => r.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);
    });

    it('counts the per-key ingest limit in Postgres and answers 429 rate-limited past it', async () => {
      const own = await createTenantFixture(prisma, {});
      const statuses: number[] = [];
      let refusal: { error?: { code?: string } } | undefined;
      for (let i = 0; i < 7; i++) {
        const res = await call<{ error?: { code?: string } }>(api, 'POST', '/v1/messages', own.apiKey, { session: `r-${uniqueSuffix()}`, text: 'oi' });
        statuses.push(res.status);
        if (res.status === 429) refusal = res.body;
      }
      expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 429]);
      expect(refusal?.error?.code).toBe('rate-limited');
    });
  });
});
