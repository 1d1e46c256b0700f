import type { AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createBullQueue, QUEUES, turnJobId, type TurnJobData } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { readRoundTrips } from '../../../bench/support/round-trips';
import { freePort } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from './support/private-api';

// The hot path's promise (issue #23, docs/hot-path.md), counted by the processes themselves
// (switchboard_pg_round_trips_total): with warm caches, one Postgres round trip per accepted
// message at ingest, and two per answered message in the worker (claim-and-load, commit). A
// change that adds one fails here.

jest.setTimeout(180_000);

/** One speak call per turn, sequential double-texting: the common case. */
const SPEAKER: AgentConfig = {
  name: 'Speaker',
  provider: { kind: 'scripted', model: 'speaker-script', scripted: { rules: [{ call: 'speak', reply: 'Olá! Como posso ajudar?' }] } },
  fields: {},
  flows: [],
  tools: [],
  doubleTexting: { policy: 'sequential' },
};

const SESSIONS = 5;
const BURST = 4;

describe('Postgres round trips per message', () => {
  let api: PrivateApi;
  let worker: WorkerProcess;
  let workerMetricsUrl: string;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  let queue: Queue<TurnJobData>;

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: SPEAKER });
    const port = await freePort();
    // One turn at a time: a burst's jobs then come up one after another, as on a busy worker.
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix, WORKER_METRICS_PORT: String(port), WORKER_METRICS_HOST: '127.0.0.1', WORKER_CONCURRENCY: '1' });
    workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
    queue = createBullQueue<TurnJobData>(QUEUES.turns, {
      REDIS_URL: process.env.REDIS_URL!,
      DATABASE_URL: process.env.DATABASE_URL!,
      QUEUE_PREFIX: api.queuePrefix,
    });
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.kill();
    await api?.stop();
    await prisma?.$disconnect();
  });

  async function roundTrips(url: string): Promise<number> {
    const count = await readRoundTrips([url]);
    if (typeof count !== 'number') throw new Error(`switchboard_pg_round_trips_total at ${url}: ${count}`);
    return count;
  }

  /**
   * The round trips `url`'s process made during `work`, less what a scrape itself costs there
   * (the API's budget gauges read the database when scraped; the counter is read before them).
   */
  async function during(url: string, work: () => Promise<void>, scrapeCost: number): Promise<number> {
    const before = await roundTrips(url);
    await work();
    return (await roundTrips(url)) - before - scrapeCost;
  }

  async function scrapeCost(url: string): Promise<number> {
    const a = await roundTrips(url);
    const b = await roundTrips(url);
    const c = await roundTrips(url);
    // Two idle scrapes cost the same, or something else ran meanwhile.
    expect(c - b).toBe(b - a);
    return b - a;
  }

  /** Posts one message to each session (plain POST, no ?wait) and returns their ids. */
  async function post(sessions: string[], text: string): Promise<string[]> {
    const ids: string[] = [];
    for (const session of sessions) {
      const res = await call<{ messageId: string; status: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session, text });
      expect(res.status).toBe(202);
      ids.push(res.body.messageId);
    }
    return ids;
  }

  async function answered(ids: string[]): Promise<void> {
    await eventually(async () => (await prisma.message.count({ where: { id: { in: ids }, status: 'answered' } })) === ids.length);
  }

  it('makes 1 at ingest per accepted message and 2 in the worker per answered message', async () => {
    // Warm: the API's key, status and quota caches, the worker's agent, quota verdict and prices.
    await answered(await post([`warm-${uniqueSuffix()}`, `warm-${uniqueSuffix()}`], 'oi'));
    const apiScrape = await scrapeCost(api.metricsUrl);
    const workerScrape = await scrapeCost(workerMetricsUrl);

    const sessions = Array.from({ length: SESSIONS }, () => `rt-${uniqueSuffix()}`);
    let ingest = 0;
    const worked = await during(
      workerMetricsUrl,
      async () => {
        // New sessions, then a second message in each (history, a session at version 1).
        for (const text of ['oi', 'tudo bem?']) {
          let ids: string[] = [];
          ingest += await during(api.metricsUrl, async () => void (ids = await post(sessions, text)), apiScrape);
          await answered(ids);
        }
      },
      workerScrape,
    );

    // Per message, 1 and 2 exactly, plus the odd refresh of a cache that expired meanwhile (the
    // API's key, status and quota caches live 5 s, and a loaded machine stretches the test past
    // that; the worker's sweeper may pass too). Those add a fraction; one more round trip per
    // message adds a whole one, so the figures must stay below the next integer.
    const messages = SESSIONS * 2;
    const perMessage = { ingest: ingest / messages, worker: worked / messages };
    expect(perMessage.ingest).toBeGreaterThanOrEqual(1);
    expect(perMessage.ingest).toBeLessThan(2);
    expect(perMessage.worker).toBeGreaterThanOrEqual(2);
    expect(perMessage.worker).toBeLessThan(3);
  });

  it('makes 1 per message after a burst’s first: the drain answers it all, each commit reading the next turn’s state, and removes the other jobs', async () => {
    await answered(await post([`warm-${uniqueSuffix()}`], 'oi'));
    const workerScrape = await scrapeCost(workerMetricsUrl);
    const session = `burst-${uniqueSuffix()}`;
    await answered(await post([session], 'oi'));

    // The customer double-texts while no worker takes jobs: four jobs wait, in order.
    await queue.pause();
    const ids: string[] = [];
    try {
      for (let i = 0; i < BURST; i++) ids.push(...(await post([session], `mensagem ${i}`)));
    } catch (err) {
      await queue.resume();
      throw err;
    }
    const worked = await during(
      workerMetricsUrl,
      async () => {
        await queue.resume();
        await answered(ids);
      },
      workerScrape,
    );

    // The first job answers all four: its first turn claims and commits, each turn after it only
    // commits (the commit before it read its state). The other three jobs are gone rather than
    // each coming up for one more read that finds its message answered.
    expect(worked).toBeGreaterThanOrEqual(2 + (BURST - 1));
    expect(worked).toBeLessThan(2 + (BURST - 1) + 1);
    await eventually(async () => (await Promise.all(ids.slice(1).map((id) => queue.getJob(turnJobId(id))))).every((job) => job === undefined));
  });
});
