import { createServer, type Server, type Socket } from 'node:net';
import type { AgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { freePort, startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// Prometheus metrics: the API's queue depth gauges (read from Redis at scrape time, bounded by a
// timeout) and the worker's own endpoint with turn, model call and token counters. A private API
// on its own QUEUE_PREFIX, so the queue numbers are this test's alone.

jest.setTimeout(180_000);

const SCRIPT: AgentConfig = {
  provider: { kind: 'scripted', model: 'metrics-script', scripted: { rules: [{ call: 'speak', reply: 'Counted.', usage: { inputTokens: 120, outputTokens: 7 } }] } },
  fields: {},
  flows: [],
  tools: [],
};

/** `name{labels} value` lines of a Prometheus text answer, by series. */
function series(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function scrape(url: string): Promise<Map<string, number>> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return series(await res.text());
}

describe('metrics', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await prisma?.$disconnect();
  });

  it('report queue depth on the API and committed turns, model calls and tokens on the worker', async () => {
    const fx = await createTenantFixture(prisma, { agentConfig: SCRIPT });
    const posted = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session: `m-${uniqueSuffix()}`, text: 'hello' });
    expect(posted.status).toBe(202);

    // No worker yet: the job waits.
    const before = await scrape(api.metricsUrl);
    expect(before.get('switchboard_queue_jobs{queue="turns",state="waiting"}')).toBe(1);
    for (const state of ['active', 'delayed', 'failed']) expect(before.get(`switchboard_queue_jobs{queue="turns",state="${state}"}`)).toBe(0);

    const port = await freePort();
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix, WORKER_METRICS_PORT: String(port), WORKER_METRICS_HOST: '127.0.0.1' });
    const turn = await eventually(() => prisma.turn.findFirst({ where: { sessionId: posted.body.sessionId } }), 90_000);

    const m = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(m.get('switchboard_turns_total{outcome="answered"}')).toBe(1);
    // Turns by agent and outcome code: this turn once under each of its codes.
    expect(turn.outcomeCodes.length).toBeGreaterThan(0);
    for (const code of turn.outcomeCodes) expect(m.get(`switchboard_turn_outcome_codes_total{agent="${turn.agentId}",code="${code}"}`)).toBe(1);
    expect(m.get('switchboard_llm_calls_total')).toBe(turn.llmCalls);
    expect(turn.llmCalls).toBeGreaterThan(0);
    expect(m.get('switchboard_tokens_total{direction="input"}')).toBe(turn.inputTokens);
    expect(m.get('switchboard_tokens_total{direction="output"}')).toBe(turn.outputTokens);
    expect(turn.outputTokens).toBe(7 * turn.llmCalls);
    expect(m.get('switchboard_turn_duration_seconds_count{outcome="answered"}')).toBe(1);
    expect(m.get('switchboard_turn_duration_seconds_sum{outcome="answered"}')).toBeCloseTo(turn.totalMs / 1000, 3);
    expect([...m.keys()].some((k) => k.startsWith('process_cpu_seconds_total'))).toBe(true);

    const after = await eventually(async () => {
      const now = await scrape(api.metricsUrl);
      return now.get('switchboard_queue_jobs{queue="turns",state="waiting"}') === 0 ? now : undefined;
    });
    expect(after.get('switchboard_queue_jobs{queue="turns",state="failed"}')).toBe(0);

    const other = await fetch(`http://127.0.0.1:${port}/other`);
    expect(other.status).toBe(404);
  });
});

describe('the API scrape with a Redis that does not answer', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    // Accepts connections and never answers a command: the slow-Redis case.
    silent = createServer((socket) => sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    const prefix = `sbt-silent-${uniqueSuffix()}`;
    api = await startApi({ ...process.env, QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn', REDIS_URL: `redis://127.0.0.1:${port}` }, prefix, 'live');
  });

  afterAll(async () => {
    if (api) await stopApi(api.child);
    for (const s of sockets) s.destroy();
    silent?.close();
  });

  it('still answers: the queue series are left out and the miss is counted', async () => {
    const res = await fetch(api!.metricsUrl);
    expect(res.status).toBe(200);
    const m = series(await res.text());
    expect([...m.keys()].filter((k) => k.startsWith('switchboard_queue_jobs{'))).toEqual([]);
    expect(m.get('switchboard_queue_depth_errors_total{queue="turns"}')).toBeGreaterThanOrEqual(1);
  });
});

describe('queue depth in Postgres mode', () => {
  holdPostgresModeSlot({ QUEUE_BACKEND: 'postgres' });
  let api: ApiProcess | undefined;
  let prisma: PrismaClient;

  beforeAll(async () => {
    prisma = testPrisma();
    const prefix = `sbt-pgm-${uniqueSuffix()}`;
    // Its own QUEUE_PREFIX is its own BullMQ schema in the test database.
    api = await startApi({ ...process.env, QUEUE_BACKEND: 'postgres', QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' }, prefix);
  });

  afterAll(async () => {
    if (api) await stopApi(api.child);
    await prisma?.$disconnect();
  });

  it('reads the counts from the Postgres queue', async () => {
    const fx = await createTenantFixture(prisma, { agentConfig: SCRIPT });
    const posted = await fetch(`${api!.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: `pg-${uniqueSuffix()}`, text: 'hello' }),
    });
    expect(posted.status).toBe(202);
    const m = await scrape(api!.metricsUrl);
    expect(m.get('switchboard_queue_jobs{queue="turns",state="waiting"}')).toBe(1);
    expect(m.get('switchboard_queue_depth_errors_total{queue="turns"}')).toBeUndefined();
  });
});
