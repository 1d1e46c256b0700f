import path from 'node:path';
import { createTenantFixture } from '../../test/support/fixtures';
import { profileTable } from '../ingest/ingest.bench';
import { BenchEnv } from '../support/bench-env';
import { summarizeProfile } from '../support/cpu-profile';
import { loadAverage } from '../support/machine';
import { captureProfile, LOG_DIR, profilerSetup, startApiProcess, startWorkerProcesses } from '../support/processes';
import type { BenchContext, BenchResult, Table, TargetCheck } from '../support/results';
import { fmt, percentOf } from '../support/stats';
import { runBareBullmq } from './bare-bullmq';
import { benchAgentConfig } from './bench-agent';
import { runPlatform, type PlatformRun } from './platform';

// N sessions × M messages through the real API and worker(s), with the scripted provider at 0 ms
// and 300 ms simulated model latency, with 1 and 2 worker processes; each against bare BullMQ
// with the same processes and total concurrency in the same run.

const SIZES = {
  full: { sessions: 50, perSession: 20, latencies: [0, 300], processes: [1, 2], timeoutMs: 300_000 },
  smoke: { sessions: 2, perSession: 2, latencies: [0], processes: [1], timeoutMs: 60_000 },
};

interface Scenario {
  latencyMs: number;
  processes: number;
  concurrencyPerProcess: number;
  platform: PlatformRun;
  bare: Awaited<ReturnType<typeof runBareBullmq>>;
}

export async function runE2eBench(ctx: BenchContext & { profile?: boolean }): Promise<BenchResult> {
  const size = SIZES[ctx.size];
  const loadAvg = loadAverage();
  const env = await BenchEnv.create('e2e');
  const scenarios: Scenario[] = [];
  let profileFile: string | undefined;
  try {
    for (const latencyMs of size.latencies) {
      for (const processes of size.processes) {
        // The same total concurrency for the platform and the baseline: one slot per session.
        const concurrencyPerProcess = Math.ceil(size.sessions / processes);
        const { platform } = await platformScenario(ctx, env, size, latencyMs, processes, concurrencyPerProcess);
        ctx.log(`e2e ${latencyMs} ms, ${processes} worker(s): bare BullMQ`);
        const bare = await runBareBullmq({
          redisUrl: env.redisUrl,
          prefix: `${env.queuePrefix}-l${latencyMs}-p${processes}-bare`,
          latencyMs,
          processes,
          concurrencyPerProcess,
          jobs: size.sessions * size.perSession,
          timeoutMs: size.timeoutMs,
        });
        scenarios.push({ latencyMs, processes, concurrencyPerProcess, platform, bare });
      }
    }
    // An extra pass under the sampling profiler (0 ms, one worker), kept out of the figures above.
    if (ctx.profile) {
      const profileDir = path.join(LOG_DIR, 'profiles', `e2e-worker-${Date.now()}`);
      ({ profileFile } = await platformScenario(ctx, env, size, 0, 1, size.sessions, profileDir));
    }
  } finally {
    await env.dispose();
  }
  return report(ctx, size, scenarios, loadAvg, profileFile);
}

/** One platform run: its own tenant, queue prefix, API and worker processes. */
async function platformScenario(
  ctx: BenchContext,
  env: BenchEnv,
  size: (typeof SIZES)['full'],
  latencyMs: number,
  processes: number,
  concurrencyPerProcess: number,
  profileDir?: string,
): Promise<{ platform: PlatformRun; profileFile?: string }> {
  const id = `l${latencyMs}-p${processes}${profileDir ? '-profiled' : ''}`;
  const prisma = env.prisma(2);
  const fixture = await createTenantFixture(prisma, { agentConfig: benchAgentConfig(latencyMs) });
  const queuePrefix = `${env.queuePrefix}-${id}`;
  const appEnv = env.appEnv({ QUEUE_PREFIX: queuePrefix, WORKER_CONCURRENCY: String(concurrencyPerProcess) });
  const profiler = profileDir ? profilerSetup(profileDir) : { nodeFlags: [], env: {} };
  ctx.log(
    `e2e ${id}: platform (${size.sessions} sessions × ${size.perSession} messages, ${processes} worker process(es) × concurrency ${concurrencyPerProcess})`,
  );
  const api = await startApiProcess(`e2e-api-${id}`, appEnv, ctx.built);
  let profileFile: string | undefined;
  try {
    const workers = await startWorkerProcesses(`e2e-worker-${id}`, processes, { ...appEnv, ...profiler.env }, ctx.built, profiler.nodeFlags);
    try {
      const platform = await runPlatform({
        prisma,
        api,
        apiKey: fixture.apiKey,
        tenantId: fixture.tenant.id,
        databaseName: env.databaseName,
        sessions: size.sessions,
        perSession: size.perSession,
        timeoutMs: size.timeoutMs,
        pids: { api: [api.pid], worker: workers.map((w) => w.pid), bench: [process.pid] },
        // The profile covers the peak phase only: the first capture throws away start-up.
        beforePeak: profileDir ? async () => void (await captureProfile(workers[0].pid, profileDir)) : undefined,
        afterPeak: profileDir ? async () => void (profileFile = await captureProfile(workers[0].pid, profileDir)) : undefined,
      });
      return { platform, profileFile };
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  } finally {
    await api.stop();
  }
}

function report(
  ctx: BenchContext,
  size: (typeof SIZES)['full'],
  scenarios: Scenario[],
  loadAvg: number[],
  profileFile: string | undefined,
): BenchResult {
  const label = (s: Scenario): string[] => [`${s.latencyMs} ms`, `${s.processes} × ${s.concurrencyPerProcess}`];
  const tables: Table[] = [
    {
      title: 'End to end: peak throughput (N×M messages posted as fast as the API takes them)',
      columns: [
        'model latency',
        'workers × concurrency',
        'platform msg/s',
        'bare BullMQ jobs/s',
        'platform / bare',
        'CPU % (worker / API / postgres / redis / machine)',
        'CPU ms per message (worker / API / postgres / redis)',
        'bare CPU ms per job (worker / redis)',
      ],
      rows: scenarios.map((s) => [
        ...label(s),
        fmt(s.platform.peak.perSec),
        fmt(s.bare.peak.perSec),
        percentOf(s.platform.peak.perSec, s.bare.peak.perSec),
        cpuCell(s.platform.peak.cpu),
        [s.platform.peak.cpuMsPerMessage.worker, s.platform.peak.cpuMsPerMessage.api, s.platform.peak.cpuMsPerMessage.postgres, s.platform.peak.cpuMsPerMessage.redis].map(fmt).join(' / '),
        [s.bare.peak.cpuMsPerJob.worker, s.bare.peak.cpuMsPerJob.redis].map(fmt).join(' / '),
      ]),
    },
    {
      title: 'End to end: added latency (ms) at half of peak load (Poisson arrivals)',
      columns: ['model latency', 'workers × concurrency', 'offered msg/s', 'platform p50', 'p95', 'p99', 'bare p50', 'p95', 'p99', 'accepted→committed p50 / p99', 'CPU % (worker / API / postgres / redis / machine)'],
      rows: scenarios.map((s) => [
        ...label(s),
        fmt(s.platform.half.ratePerSec),
        fmt(s.platform.half.added.p50),
        fmt(s.platform.half.added.p95),
        fmt(s.platform.half.added.p99),
        fmt(s.bare.half.added.p50),
        fmt(s.bare.half.added.p95),
        fmt(s.bare.half.added.p99),
        `${fmt(s.platform.half.acceptedToCommitted.p50)} / ${fmt(s.platform.half.acceptedToCommitted.p99)}`,
        cpuCell(s.platform.half.cpu),
      ]),
    },
    {
      title: 'End to end: what was committed (both phases)',
      columns: ['model latency', 'workers × concurrency', 'inbound answered', 'failed', 'replies', 'POST failures', 'model ms p50 (Turn.modelMs)'],
      rows: scenarios.map((s) => [...label(s), s.platform.answered, s.platform.failed, s.platform.replies, s.platform.postFailures, fmt(s.platform.half.modelMs.p50)]),
    },
  ];
  const full = ctx.size === 'full';
  const targets: TargetCheck[] = [];
  for (const s of scenarios) {
    const ratio = s.platform.peak.perSec / Math.max(1e-9, s.bare.peak.perSec);
    targets.push({
      target: `e2e throughput ≥ 50% of bare BullMQ (${s.latencyMs} ms model, ${s.processes} worker process${s.processes > 1 ? 'es' : ''})`,
      actual: `${fmt(s.platform.peak.perSec)} vs ${fmt(s.bare.peak.perSec)} msg/s = ${percentOf(s.platform.peak.perSec, s.bare.peak.perSec)}`,
      met: full ? ratio >= 0.5 : null,
    });
  }
  for (const s of scenarios) {
    const a = s.platform.half.added;
    targets.push({
      target: `added latency p50 ≤ 10 ms and p99 ≤ 50 ms at half of peak (${s.latencyMs} ms model, ${s.processes} worker process${s.processes > 1 ? 'es' : ''})`,
      actual: `p50 ${fmt(a.p50)} ms, p99 ${fmt(a.p99)} ms at ${fmt(s.platform.half.ratePerSec)} msg/s`,
      met: full ? (a.p50 ?? Infinity) <= 10 && (a.p99 ?? Infinity) <= 50 : null,
    });
  }
  const notes: string[] = [];
  for (const s of scenarios) {
    const expected = 2 * size.sessions * size.perSession;
    if (s.platform.answered !== expected || s.platform.replies !== expected || s.platform.postFailures > 0) {
      notes.push(
        `${s.latencyMs} ms / ${s.processes} worker(s): ${s.platform.answered} of ${expected} messages answered, ${s.platform.replies} replies, ` +
          `${s.platform.postFailures} POST failures (last: ${s.platform.lastPostFailure || 'none'}) — the figures of this row are not valid.`,
      );
    }
  }
  if (profileFile) {
    const summary = summarizeProfile(profileFile, 12);
    tables.push(profileTable('End to end: worker CPU profile during the 0 ms peak, self time by package', summary.byPackage));
    tables.push(profileTable('End to end: worker CPU profile during the 0 ms peak, hottest functions', summary.byFunction));
    notes.push(`Worker CPU profile (an extra 0 ms, 1-worker pass under the sampling profiler, peak phase; not in the figures above): ${path.relative(process.cwd(), profileFile)} (busy ${summary.busyPercentOfWall}% of the sampled wall time).`);
  }
  return {
    id: 'e2e',
    title: 'End to end: accepted → reply committed',
    description: [
      `${size.sessions} sessions × ${size.perSession} messages posted to the built API (NODE_ENV=production, LOG_LEVEL=warn) and answered by ` +
        'built worker processes; the agent is the idle speaker played by the scripted provider with a simulated model latency ' +
        '(one speak call per turn; the sequential double-texting policy). Each worker process runs with WORKER_CONCURRENCY = ' +
        'sessions ÷ processes, so the total concurrency is one slot per session for both the platform and the baseline.',
      '**Peak**: all N×M messages posted as fast as the API takes them (16 requests in flight) while the workers answer; messages ' +
        'answered per second = messages ÷ (last `answeredAt` − first `createdAt`): the whole platform (API, worker, Postgres, Redis) ' +
        'sharing the two cores. **Half load**: new sessions get the same number of messages at half the measured peak rate ' +
        '(Poisson arrivals, round robin over sessions). **Added latency** per message = `Turn.queueWaitMs + Turn.totalMs − Turn.modelMs` ' +
        '(accepted → the commit’s last statement, minus the time in the model call).',
      '**Baseline**: bare BullMQ with the same number of processes and concurrency: `add` (16 producers in flight) → a processor that ' +
        'sleeps the same model latency → ack; the same peak and half-load phases; added latency = `finishedOn − timestamp − latency`. CPU % columns: share of one ' +
        'core used by each process group during the phase (200% = both cores).',
    ],
    tables,
    targets,
    notes,
    measuredAt: new Date().toISOString(),
    loadAverage: loadAvg,
    command: ctx.command,
  };
}

function cpuCell(cpu: Record<string, number>): string {
  return [cpu.worker, cpu.api, cpu.postgres, cpu.redis, cpu.machine].map((n) => `${n ?? '–'}`).join(' / ');
}
