import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, type TenantFixture } from '../../test/support/fixtures';
import { benchAgentConfig } from '../e2e/bench-agent';
import { MessagePoster, type OutgoingMessage } from '../e2e/message-poster';
import { poissonSchedule, runOpenLoop } from '../e2e/poisson';
import { BenchEnv } from '../support/bench-env';
import { loadAverage } from '../support/machine';
import { startApiProcess, startWorkerProcesses } from '../support/processes';
import type { BenchContext, BenchResult, TargetCheck } from '../support/results';
import { fmt, sleep, summarize, type LatencySummary } from '../support/stats';

// Noisy neighbours (issue #24): tenant B sends a steady trickle while tenant A floods as fast as
// the API takes messages, all within A's limits. B's reply latency (accepted → reply committed)
// is measured with and without the flood, in the same run, with one worker process and with two.
// Fair scheduling (docs/fairness.md) should keep B's p95 within 100 ms of its idle figure.

const SIZES = {
  full: { flood: 3000, trickle: 60, trickleRate: 4, processes: [1, 2], concurrency: 16, timeoutMs: 300_000 },
  smoke: { flood: 60, trickle: 4, trickleRate: 4, processes: [1], concurrency: 4, timeoutMs: 60_000 },
};
const TARGET_RISE_MS = 100;

interface Scenario {
  processes: number;
  idle: LatencySummary;
  flooded: LatencySummary;
  /** Where B's time under the flood went: waiting for a worker, the turn before its commit, the commit. */
  floodedParts: { queueWait: LatencySummary; turn: LatencySummary; commit: LatencySummary };
  floodPerSec: number;
  floodAnswered: number;
}

export async function runFairnessBench(ctx: BenchContext): Promise<BenchResult> {
  const size = SIZES[ctx.size];
  const loadAvg = loadAverage();
  const env = await BenchEnv.create('fairness', ctx.size);
  const scenarios: Scenario[] = [];
  try {
    for (const processes of size.processes) scenarios.push(await scenario(ctx, env, size, processes));
  } finally {
    await env.dispose();
  }
  return report(ctx, size, scenarios, loadAvg);
}

async function scenario(ctx: BenchContext, env: BenchEnv, size: (typeof SIZES)['full'], processes: number): Promise<Scenario> {
  const prisma = env.prisma(2);
  const a = await createTenantFixture(prisma, { agentConfig: benchAgentConfig(0) });
  const b = await createTenantFixture(prisma, { agentConfig: benchAgentConfig(0) });
  const appEnv = env.appEnv({ QUEUE_PREFIX: `${env.queuePrefix}-p${processes}`, WORKER_CONCURRENCY: String(size.concurrency) });
  const api = await startApiProcess(`fairness-api-p${processes}`, appEnv, ctx.built);
  const workers = await startWorkerProcesses(`fairness-worker-p${processes}`, processes, appEnv, ctx.built);
  const posterA = new MessagePoster(api.baseUrl, a.apiKey);
  const posterB = new MessagePoster(api.baseUrl, b.apiKey);
  try {
    ctx.log(`fairness, ${processes} worker(s): B alone (${size.trickle} messages at ${size.trickleRate}/s)`);
    await trickle(posterB, 'idle', size);
    await waitUntilAnswered(prisma, b, size.timeoutMs);
    const idle = latency(await turnTimes(prisma, b, 'idle-%'));

    ctx.log(`fairness, ${processes} worker(s): A floods ${size.flood} messages while B trickles`);
    const floodMessages: OutgoingMessage[] = Array.from({ length: size.flood }, (_, i) => ({ session: `flood-${i % 500}`, text: `flood ${i}` }));
    const f0 = Date.now();
    const flood = posterA.postAll(floodMessages, 16);
    // B starts once A's backlog is building.
    await sleep(500);
    await trickle(posterB, 'flooded', size);
    await flood;
    const floodPerSec = size.flood / ((Date.now() - f0) / 1000);
    await waitUntilAnswered(prisma, b, size.timeoutMs);
    await waitUntilAnswered(prisma, a, size.timeoutMs);
    const floodedTimes = await turnTimes(prisma, b, 'flooded-%');
    const flooded = latency(floodedTimes);
    const floodedParts = latencyParts(floodedTimes);
    const floodAnswered = await prisma.message.count({ where: { tenantId: a.tenant.id, direction: 'inbound', status: 'answered' } });
    return { processes, idle, flooded, floodedParts, floodPerSec, floodAnswered };
  } finally {
    posterA.close();
    posterB.close();
    await Promise.all(workers.map((w) => w.stop()));
    await api.stop();
    await prisma.$disconnect();
  }
}

/** B's messages, one per session, Poisson arrivals at the trickle rate. */
async function trickle(poster: MessagePoster, tag: string, size: (typeof SIZES)['full']): Promise<void> {
  const messages = Array.from({ length: size.trickle }, (_, i) => ({ session: `${tag}-${i}`, text: `${tag} ${i}` }));
  await runOpenLoop(poissonSchedule(messages.length, size.trickleRate), (i) => poster.post(messages[i]));
}

type TurnTimes = { queueWaitMs: number; totalMs: number; commitMs: number }[];

/** Accepted → reply committed, from the turn rows. */
function latency(rows: TurnTimes): LatencySummary {
  return summarize(rows.map((r) => r.queueWaitMs + r.totalMs));
}

function latencyParts(rows: TurnTimes): Scenario['floodedParts'] {
  return {
    queueWait: summarize(rows.map((r) => r.queueWaitMs)),
    turn: summarize(rows.map((r) => r.totalMs - r.commitMs)),
    commit: summarize(rows.map((r) => r.commitMs)),
  };
}

/** The tenant's turns in the sessions matching `sessions` (a LIKE pattern): queue wait, total and commit time. */
async function turnTimes(prisma: PrismaClient, fx: TenantFixture, sessions: string): Promise<TurnTimes> {
  const rows = await prisma.$queryRawUnsafe<{ queueWaitMs: number; totalMs: number; commitMs: number }[]>(
    `SELECT t."queueWaitMs", t."totalMs", t."commitMs" FROM "Message" m
       JOIN "Session" s ON s.id = m."sessionId" JOIN "Turn" t ON t.id = m."turnId"
      WHERE m."tenantId" = $1::uuid AND m.direction = 'inbound' AND s."externalKey" LIKE $2`,
    fx.tenant.id,
    sessions,
  );
  return rows.map((r) => ({ queueWaitMs: Number(r.queueWaitMs), totalMs: Number(r.totalMs), commitMs: Number(r.commitMs) }));
}

async function waitUntilAnswered(prisma: PrismaClient, fx: TenantFixture, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const queued = await prisma.message.count({ where: { tenantId: fx.tenant.id, direction: 'inbound', status: 'queued' } });
    if (queued === 0) return;
    if (Date.now() > deadline) throw new Error(`fairness: ${queued} messages still queued after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function report(ctx: BenchContext, size: (typeof SIZES)['full'], scenarios: Scenario[], loadAvg: number[]): BenchResult {
  const full = ctx.size === 'full';
  const targets: TargetCheck[] = scenarios.map((s) => {
    const rise = (s.flooded.p95 ?? Infinity) - (s.idle.p95 ?? 0);
    return {
      target: `B's p95 rises ≤ ${TARGET_RISE_MS} ms while A floods (${s.processes} worker process${s.processes > 1 ? 'es' : ''})`,
      actual: `${fmt(s.idle.p95)} ms alone → ${fmt(s.flooded.p95)} ms under the flood (+${fmt(rise)} ms)`,
      met: full ? rise <= TARGET_RISE_MS : null,
    };
  });
  return {
    id: 'fairness',
    title: 'Fairness: a quiet tenant next to a flooding one',
    description: [
      `Tenant B sends ${size.trickle} messages (one per session, Poisson arrivals at ${size.trickleRate}/s), first alone, then while tenant A ` +
        `posts ${size.flood} messages over 500 sessions as fast as the API takes them (16 requests in flight), within its limits. Built API and ` +
        `worker processes, WORKER_CONCURRENCY ${size.concurrency}, the bench agent at 0 ms model latency. B's latency per message = ` +
        '`Turn.queueWaitMs + Turn.totalMs` (accepted → reply committed). The baseline is B alone, in the same run.',
    ],
    tables: [
      {
        title: "Fairness: B's reply latency (ms), alone and under A's flood",
        columns: ['workers × concurrency', 'B alone p50', 'p95', 'B under flood p50', 'p95', 'p99', 'p95 rise', "A's flood msg/s (posted)", 'A answered'],
        rows: scenarios.map((s) => [
          `${s.processes} × ${size.concurrency}`,
          fmt(s.idle.p50),
          fmt(s.idle.p95),
          fmt(s.flooded.p50),
          fmt(s.flooded.p95),
          fmt(s.flooded.p99),
          fmt((s.flooded.p95 ?? 0) - (s.idle.p95 ?? 0)),
          fmt(s.floodPerSec),
          `${s.floodAnswered} / ${size.flood}`,
        ]),
      },
      {
        title: "Fairness: where B's time under the flood went (ms; p50 / p95)",
        columns: ['workers × concurrency', 'accepted → turn starts (queue wait)', 'turn before its commit', 'commit'],
        rows: scenarios.map((s) => [
          `${s.processes} × ${size.concurrency}`,
          `${fmt(s.floodedParts.queueWait.p50)} / ${fmt(s.floodedParts.queueWait.p95)}`,
          `${fmt(s.floodedParts.turn.p50)} / ${fmt(s.floodedParts.turn.p95)}`,
          `${fmt(s.floodedParts.commit.p50)} / ${fmt(s.floodedParts.commit.p95)}`,
        ]),
      },
    ],
    targets,
    notes: [],
    measuredAt: new Date().toISOString(),
    loadAverage: loadAvg,
    command: ctx.command,
  };
}
