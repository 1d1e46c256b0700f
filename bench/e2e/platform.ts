import type { PrismaClient } from '@switchboard/db';
import type { ApiHandle } from '../support/processes';
import { cpuMsPer, cpuPercent, cpuSnapshot } from '../support/cpu-usage';
import { idleRoundTripRate, perUnitNet, startRoundTripCount, type RoundTrips } from '../support/round-trips';
import { sleep, summarize } from '../support/stats';
import { figure, type HalfLoadFigure, type ThroughputFigure } from './bare-bullmq';
import { MessagePoster, sessionMessages } from './message-poster';
import { poissonSchedule, runOpenLoop } from './poisson';

// The platform side of the end-to-end bench: messages posted to the real API, answered by the
// real worker processes (scripted provider with a simulated model latency), measured from the
// rows the commit wrote.

export interface PlatformSpec {
  prisma: PrismaClient;
  api: ApiHandle;
  apiKey: string;
  tenantId: string;
  sessions: number;
  perSession: number;
  timeoutMs: number;
  /** The bench database: only its Postgres backends count as the platform's Postgres CPU. */
  databaseName: string;
  /** Processes whose CPU use is reported per phase (besides Postgres, Redis and the machine). */
  pids: Record<string, number[]>;
  /** The apps' /metrics endpoints, where the Postgres round trips are counted. */
  metricsUrls: { api: string[]; worker: string[] };
  /** Called right before the peak phase starts and after it ends (CPU profile of the peak). */
  beforePeak?: () => Promise<void>;
  afterPeak?: () => Promise<void>;
}

export interface PlatformRun {
  peak: ThroughputFigure & {
    cpu: Record<string, number>;
    cpuMsPerMessage: Record<string, number>;
    /**
     * Postgres round trips per message, by the apps' own counter (or why there is no count).
     * `workerNet`: the workers' less their idle rate over the phase (the delivery poller, the sweeper).
     */
    roundTrips: { api: RoundTrips; worker: RoundTrips; workerNet: RoundTrips; workerIdlePerSec: RoundTrips };
  };
  half: HalfLoadFigure & { cpu: Record<string, number>; acceptedToCommitted: ReturnType<typeof summarize>; modelMs: ReturnType<typeof summarize> };
  answered: number;
  failed: number;
  replies: number;
  postFailures: number;
  lastPostFailure: string;
}

/** One-message sessions answered before the peak, so every worker process has run turns. */
const WARM_SESSIONS = 16;

/** How long the workers' idle round trips are counted before the peak. */
const IDLE_ROUND_TRIPS_MS = 3_000;

interface TurnTiming {
  queueWaitMs: number;
  totalMs: number;
  modelMs: number;
}

/** Runs the peak (backlog) and half-load phases against workers that are already connected. */
export async function runPlatform(spec: PlatformSpec): Promise<PlatformRun> {
  const poster = new MessagePoster(spec.api.baseUrl, spec.apiKey);
  const total = spec.sessions * spec.perSession;
  try {
    // Peak: every message of every session posted as fast as the API takes them (16 in flight)
    // while the workers answer: the whole platform's rate, accepted → answered.
    // Warm: each worker loads its agent and the price tables on its first turns (and again every
    // 30 s at most), as any running worker has them already; the peak counts the messages' own.
    await poster.postAll(sessionMessages('warm', WARM_SESSIONS, 1), WARM_SESSIONS);
    await waitUntilAnswered(spec, 'warm', spec.timeoutMs);
    // Then the workers' round trips with nothing to do, which the clock makes, not the messages.
    const workerIdlePerSec = await idleRoundTripRate(spec.metricsUrls.worker, IDLE_ROUND_TRIPS_MS);
    await spec.beforePeak?.();
    const apiTrips = await startRoundTripCount(spec.metricsUrls.api);
    const workerTrips = await startRoundTripCount(spec.metricsUrls.worker);
    const cpu0 = await cpuSnapshot(spec.pids, { database: spec.databaseName });
    const t0 = Date.now();
    await poster.postAll(sessionMessages('peak', spec.sessions, spec.perSession), 16);
    await waitUntilAnswered(spec, 'peak', spec.timeoutMs);
    const cpuAfterPeak = await cpuSnapshot(spec.pids, { database: spec.databaseName });
    const peakCpu = cpuPercent(cpu0, cpuAfterPeak, (Date.now() - t0) / 1000);
    const [{ count, first, last }] = await spec.prisma.$queryRawUnsafe<{ count: bigint; first: Date; last: Date }[]>(
      `SELECT count(*) AS count, min(m."createdAt") AS first, max(m."answeredAt") AS last FROM "Message" m JOIN "Session" s ON s.id = m."sessionId"
        WHERE m."tenantId" = $1::uuid AND m.direction = 'inbound' AND s."externalKey" LIKE 'peak-%'`,
      spec.tenantId,
    );
    const workerCounted = await workerTrips.counted();
    const roundTrips = {
      api: await apiTrips.perUnit(Number(count)),
      worker: perUnitNet(workerCounted, Number(count), 0),
      workerNet: perUnitNet(workerCounted, Number(count), workerIdlePerSec),
      workerIdlePerSec,
    };
    const peak = { ...figure(Number(count), last.getTime() - first.getTime()), cpu: peakCpu, cpuMsPerMessage: cpuMsPer(cpu0, cpuAfterPeak, Number(count)), roundTrips };
    await spec.afterPeak?.();

    // Half of peak: new sessions, Poisson arrivals at half the peak rate, round robin over sessions.
    const rate = Math.max(1, peak.perSec / 2);
    const messages = sessionMessages('half', spec.sessions, spec.perSession);
    const cpu1 = await cpuSnapshot(spec.pids, { database: spec.databaseName });
    const h0 = Date.now();
    await runOpenLoop(poissonSchedule(total, rate), (i) => poster.post(messages[i]));
    await waitUntilAnswered(spec, 'half', spec.timeoutMs);
    const halfCpu = cpuPercent(cpu1, (await cpuSnapshot(spec.pids, { database: spec.databaseName })), (Date.now() - h0) / 1000);
    const timings = await spec.prisma.$queryRawUnsafe<(TurnTiming & { answeredAt: Date })[]>(
      `SELECT t."queueWaitMs", t."totalMs", t."modelMs", m."answeredAt" FROM "Message" m
         JOIN "Session" s ON s.id = m."sessionId" JOIN "Turn" t ON t.id = m."turnId"
        WHERE m."tenantId" = $1::uuid AND m.direction = 'inbound' AND s."externalKey" LIKE 'half-%'`,
      spec.tenantId,
    );
    const h1 = Math.max(...timings.map((t) => t.answeredAt.getTime()));
    const [check] = await spec.prisma.$queryRawUnsafe<{ answered: bigint; failed: bigint; replies: bigint }[]>(
      `SELECT count(*) FILTER (WHERE m.direction = 'inbound' AND m.status = 'answered') AS answered,
              count(*) FILTER (WHERE m.direction = 'inbound' AND m.status = 'failed') AS failed,
              count(*) FILTER (WHERE m.direction = 'outbound') AS replies
         FROM "Message" m JOIN "Session" s ON s.id = m."sessionId"
        WHERE m."tenantId" = $1::uuid AND (s."externalKey" LIKE 'peak-%' OR s."externalKey" LIKE 'half-%')`,
      spec.tenantId,
    );
    return {
      peak,
      half: {
        cpu: halfCpu,
        ratePerSec: rate,
        achievedPerSec: timings.length / ((h1 - h0) / 1000),
        // Accepted → reply committed is the turn's queue wait plus its total time (which ends at
        // the commit's last statement); minus the model's time, what the platform adds.
        added: summarize(timings.map((t) => t.queueWaitMs + t.totalMs - t.modelMs)),
        acceptedToCommitted: summarize(timings.map((t) => t.queueWaitMs + t.totalMs)),
        modelMs: summarize(timings.map((t) => t.modelMs)),
      },
      answered: Number(check.answered),
      failed: Number(check.failed),
      replies: Number(check.replies),
      postFailures: poster.failures,
      lastPostFailure: poster.lastFailure,
    };
  } finally {
    poster.close();
  }
}

/** Waits until no inbound message of the tenant's sessions whose key starts with `prefix-` is queued. */
export async function waitUntilAnswered(spec: Pick<PlatformSpec, 'prisma' | 'tenantId'>, prefix: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ queued }] = await spec.prisma.$queryRawUnsafe<{ queued: bigint }[]>(
      `SELECT count(*) AS queued FROM "Message" m JOIN "Session" s ON s.id = m."sessionId"
        WHERE m."tenantId" = $1::uuid AND m.direction = 'inbound' AND m.status = 'queued' AND s."externalKey" LIKE $2`,
      spec.tenantId,
      `${prefix}-%`,
    );
    if (Number(queued) === 0) return;
    if (Date.now() > deadline) throw new Error(`e2e: ${queued} ${prefix} messages still queued after ${timeoutMs} ms`);
    await sleep(100);
  }
}
