import path from 'node:path';
import { createTenantFixture } from '../../test/support/fixtures';
import { runDurablePipeline } from '../durable/durable-pipeline';
import { BenchEnv } from '../support/bench-env';
import type { BareBackend } from '../support/bare-queue';
import { loadAverage } from '../support/machine';
import { captureProfile, LOG_DIR, profilerSetup, startApiProcess, startWorkerProcesses } from '../support/processes';
import type { BenchContext, BenchResult } from '../support/results';
import { LONG_SESSION_MESSAGES } from '../support/targets';
import { runBareBullmq } from './bare-bullmq';
import { benchAgentConfig } from './bench-agent';
import { e2eReport, type E2eSize, type PeakProfiles, type Scenario } from './e2e-report';
import { runLongSession, type LongSessionRun } from './long-session';
import { runPlatform, type PlatformRun } from './platform';

// N sessions × M messages through the real API and worker(s), with the scripted provider at 0 ms
// and 300 ms simulated model latency, with 1 and 2 worker processes; each against two baselines
// with the same processes and total concurrency in the same run: the bare durable pipeline (a
// durable insert + add, a one-transaction commit) and bare BullMQ. Then the same at 0 ms in
// Postgres mode (QUEUE_BACKEND=postgres), its baselines on BullMQ's Postgres backend; and turns
// on long conversations against turns on fresh ones.

const SIZES: Record<'full' | 'smoke', E2eSize> = {
  full: {
    sessions: 50,
    perSession: 20,
    modes: [
      { backend: 'redis', latencies: [0, 300], processes: [1, 2] },
      { backend: 'postgres', latencies: [0], processes: [1, 2] },
    ],
    long: { sessions: 8, turnsPerSession: 40, earlierMessages: LONG_SESSION_MESSAGES },
    timeoutMs: 300_000,
  },
  smoke: {
    sessions: 2,
    perSession: 2,
    modes: [
      { backend: 'redis', latencies: [0], processes: [1] },
      { backend: 'postgres', latencies: [0], processes: [1] },
    ],
    long: { sessions: 1, turnsPerSession: 2, earlierMessages: LONG_SESSION_MESSAGES },
    timeoutMs: 60_000,
  },
};

export async function runE2eBench(ctx: BenchContext & { profile?: boolean }): Promise<BenchResult> {
  const size = SIZES[ctx.size];
  const loadAvg = loadAverage();
  const env = await BenchEnv.create('e2e', ctx.size);
  const scenarios: Scenario[] = [];
  let long: LongSessionRun | undefined;
  let profiles: PeakProfiles = {};
  try {
    for (const mode of size.modes) {
      for (const latencyMs of mode.latencies) {
        for (const processes of mode.processes) {
          // The same total concurrency for the platform and the baselines: one slot per session.
          const concurrencyPerProcess = Math.ceil(size.sessions / processes);
          const withLong = mode.backend === 'redis' && latencyMs === 0 && processes === 1;
          const run = await platformScenario(ctx, env, size, mode.backend, latencyMs, processes, concurrencyPerProcess, { long: withLong });
          long ??= run.long;
          const id = `${mode.backend === 'postgres' ? 'pg-' : ''}l${latencyMs}-p${processes}`;
          const target = { backend: mode.backend, redisUrl: env.redisUrl, databaseUrl: env.databaseUrl, prefix: `${env.queuePrefix}-${id}` };
          const common = { databaseName: env.databaseName, latencyMs, processes, concurrencyPerProcess, timeoutMs: size.timeoutMs };
          ctx.log(`e2e ${id}: bare durable pipeline`);
          const durable = await runDurablePipeline({
            ...common,
            id,
            target: { ...target, prefix: `${target.prefix}-durable` },
            sessions: size.sessions,
            perSession: size.perSession,
          });
          ctx.log(`e2e ${id}: bare BullMQ`);
          const bare = await runBareBullmq({ ...common, target: { ...target, prefix: `${target.prefix}-bare` }, jobs: size.sessions * size.perSession });
          scenarios.push({ backend: mode.backend, latencyMs, processes, concurrencyPerProcess, platform: run.platform, durable, bare });
        }
      }
    }
    // An extra pass under the sampling profiler (0 ms, one worker), kept out of the figures above.
    if (ctx.profile) {
      const profileDir = path.join(LOG_DIR, 'profiles', `e2e-${Date.now()}`);
      ({ profiles } = await platformScenario(ctx, env, size, 'redis', 0, 1, size.sessions, { profileDir }));
    }
  } finally {
    await env.dispose();
  }
  return e2eReport(ctx, size, scenarios, long, loadAvg, profiles);
}

/** One platform run: its own tenant, queue prefix, API and worker processes; then the long-session comparison when asked. */
async function platformScenario(
  ctx: BenchContext,
  env: BenchEnv,
  size: E2eSize,
  backend: BareBackend,
  latencyMs: number,
  processes: number,
  concurrencyPerProcess: number,
  opts: { profileDir?: string; long?: boolean },
): Promise<{ platform: PlatformRun; long?: LongSessionRun; profiles: PeakProfiles }> {
  const { profileDir } = opts;
  const id = `${backend === 'postgres' ? 'pg-' : ''}l${latencyMs}-p${processes}${profileDir ? '-profiled' : ''}`;
  const prisma = env.prisma(2);
  const fixture = await createTenantFixture(prisma, { agentConfig: benchAgentConfig(latencyMs) });
  const queuePrefix = `${env.queuePrefix}-${id}`;
  const appEnv = env.appEnv({ QUEUE_PREFIX: queuePrefix, WORKER_CONCURRENCY: String(concurrencyPerProcess), QUEUE_BACKEND: backend });
  const profiler = profileDir ? profilerSetup(profileDir) : { nodeFlags: [], env: {} };
  ctx.log(
    `e2e ${id}: platform (${backend} queue, ${size.sessions} sessions × ${size.perSession} messages, ${processes} worker process(es) × concurrency ${concurrencyPerProcess})`,
  );
  const api = await startApiProcess(`e2e-api-${id}`, { ...appEnv, ...profiler.env }, ctx.built, profiler.nodeFlags);
  const profiles: PeakProfiles = {};
  try {
    const workers = await startWorkerProcesses(`e2e-worker-${id}`, processes, { ...appEnv, ...profiler.env }, ctx.built, profiler.nodeFlags);
    const captureWorkerAndApi = (dir: string) => Promise.all([captureProfile(workers[0].pid, dir), captureProfile(api.pid, dir)]);
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
        metricsUrls: { api: [api.metricsUrl], worker: workers.map((w) => w.metricsUrl) },
        // The profiles cover the peak phase only: the first capture throws away start-up.
        beforePeak: profileDir ? async () => void (await captureWorkerAndApi(profileDir)) : undefined,
        afterPeak: profileDir ? async () => void ([profiles.worker, profiles.api] = await captureWorkerAndApi(profileDir)) : undefined,
      });
      let long: LongSessionRun | undefined;
      if (opts.long) {
        ctx.log(`e2e ${id}: turns on ${size.long.sessions} session(s) with ${size.long.earlierMessages} earlier messages vs fresh sessions`);
        long = await runLongSession({
          prisma,
          api,
          apiKey: fixture.apiKey,
          tenantId: fixture.tenant.id,
          databaseName: env.databaseName,
          workerPids: workers.map((w) => w.pid),
          ...size.long,
          timeoutMs: size.timeoutMs,
        });
      }
      return { platform, long, profiles };
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  } finally {
    await api.stop();
  }
}
