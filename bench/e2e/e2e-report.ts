import path from 'node:path';
import type { DurableRun } from '../durable/durable-pipeline';
import { profileTable, roundTripCell } from '../ingest/ingest.bench';
import type { BareBackend } from '../support/bare-queue';
import { summarizeProfile } from '../support/cpu-profile';
import type { BenchContext, BenchResult, Table, TargetCheck } from '../support/results';
import { fmt, percentOf } from '../support/stats';
import { CPU_MS_PER_MESSAGE_TARGET, LONG_SESSION_RATIO_TARGET, ROUND_TRIPS_TARGET, TODAY, timesToday } from '../support/targets';
import type { runBareBullmq } from './bare-bullmq';
import type { LongSessionPhase, LongSessionRun } from './long-session';
import type { PlatformRun } from './platform';

// The end-to-end bench's tables, targets and notes, from its scenarios' figures.

export interface E2eSize {
  sessions: number;
  perSession: number;
  /** Per queue backend, the model latencies and worker process counts to run. */
  modes: { backend: BareBackend; latencies: number[]; processes: number[] }[];
  long: { sessions: number; turnsPerSession: number; earlierMessages: number };
  timeoutMs: number;
}

/** The .cpuprofile files of the profiled pass's peak, by process (absent: not profiled, or not written). */
export interface PeakProfiles {
  worker?: string;
  api?: string;
}

export interface Scenario {
  backend: BareBackend;
  latencyMs: number;
  processes: number;
  concurrencyPerProcess: number;
  platform: PlatformRun;
  durable: DurableRun;
  bare: Awaited<ReturnType<typeof runBareBullmq>>;
}

const QUEUE_LABEL: Record<BareBackend, string> = { redis: 'Redis', postgres: 'Postgres' };

function label(s: Scenario): string[] {
  return [QUEUE_LABEL[s.backend], `${s.latencyMs} ms`, `${s.processes} × ${s.concurrencyPerProcess}`];
}

function caseName(s: Scenario): string {
  return `${s.latencyMs} ms model, ${QUEUE_LABEL[s.backend]} queue, ${s.processes} worker process${s.processes > 1 ? 'es' : ''}`;
}

/** CPU ms per message of every process group (the bench process itself excluded), and their sum. */
function cpuTotal(cpu: Record<string, number>, groups: string[]): number {
  return groups.reduce((n, g) => n + (cpu[g] ?? 0), 0);
}

function cpuMsCell(cpu: Record<string, number>, groups: string[]): string {
  return `${groups.map((g) => fmt(cpu[g] ?? 0)).join(' / ')} = ${fmt(cpuTotal(cpu, groups))}`;
}

const PLATFORM_CPU = ['worker', 'api', 'postgres', 'redis'];
const BARE_CPU = ['worker', 'postgres', 'redis'];

function cpuCell(cpu: Record<string, number>): string {
  return [cpu.worker, cpu.api, cpu.postgres, cpu.redis, cpu.machine].map((n) => `${n ?? '–'}`).join(' / ');
}

function longCost(p: LongSessionPhase): number {
  return (p.cpuMsPerTurn.worker ?? 0) + (p.cpuMsPerTurn.postgres ?? 0);
}

export function e2eReport(
  ctx: BenchContext,
  size: E2eSize,
  scenarios: Scenario[],
  long: LongSessionRun | undefined,
  loadAvg: number[],
  profiles: PeakProfiles,
): BenchResult {
  const tables: Table[] = [
    {
      title: 'End to end: peak throughput (N×M messages posted as fast as each side takes them)',
      columns: [
        'queue',
        'model latency',
        'workers × concurrency',
        'platform msg/s',
        'bare durable msg/s',
        'bare BullMQ jobs/s',
        'platform / bare durable',
        'platform / bare BullMQ',
        'platform CPU % (worker / API / postgres / redis / machine)',
      ],
      rows: scenarios.map((s) => [
        ...label(s),
        fmt(s.platform.peak.perSec),
        fmt(s.durable.peak.perSec),
        fmt(s.bare.peak.perSec),
        percentOf(s.platform.peak.perSec, s.durable.peak.perSec),
        percentOf(s.platform.peak.perSec, s.bare.peak.perSec),
        cpuCell(s.platform.peak.cpu),
      ]),
    },
    {
      title: 'End to end: CPU ms per answered message during the peak (all processes together)',
      columns: [
        'queue',
        'model latency',
        'workers × concurrency',
        'platform (worker / API / postgres / redis = all)',
        'bare durable (worker / route / postgres / redis = all)',
        'bare BullMQ per job (worker / postgres / redis = all)',
        'platform ÷ bare durable',
      ],
      rows: scenarios.map((s) => [
        ...label(s),
        cpuMsCell(s.platform.peak.cpuMsPerMessage, PLATFORM_CPU),
        cpuMsCell(s.durable.peak.cpuMsPerMessage, PLATFORM_CPU),
        cpuMsCell(s.bare.peak.cpuMsPerJob, BARE_CPU),
        `${fmt(cpuTotal(s.platform.peak.cpuMsPerMessage, PLATFORM_CPU) / Math.max(0.001, cpuTotal(s.durable.peak.cpuMsPerMessage, PLATFORM_CPU)))}×`,
      ]),
    },
    {
      title: 'End to end: added latency (ms) at half of each side’s own peak (Poisson arrivals)',
      columns: [
        'queue',
        'model latency',
        'workers × concurrency',
        'platform msg/s offered',
        'platform p50',
        'p95',
        'p99',
        'bare durable p50',
        'p99',
        'bare BullMQ p50',
        'p99',
        'platform accepted→committed p50 / p99',
        'platform CPU % (worker / API / postgres / redis / machine)',
      ],
      rows: scenarios.map((s) => [
        ...label(s),
        fmt(s.platform.half.ratePerSec),
        fmt(s.platform.half.added.p50),
        fmt(s.platform.half.added.p95),
        fmt(s.platform.half.added.p99),
        fmt(s.durable.half.added.p50),
        fmt(s.durable.half.added.p99),
        fmt(s.bare.half.added.p50),
        fmt(s.bare.half.added.p99),
        `${fmt(s.platform.half.acceptedToCommitted.p50)} / ${fmt(s.platform.half.acceptedToCommitted.p99)}`,
        cpuCell(s.platform.half.cpu),
      ]),
    },
    {
      title: 'End to end: Postgres round trips per message during the peak (the apps’ switchboard_pg_round_trips_total)',
      columns: ['queue', 'model latency', 'workers × concurrency', 'API (ingest)', 'worker(s), all together', 'worker(s) idle, per second', 'worker(s), less idle'],
      rows: scenarios.map((s) => [
        ...label(s),
        roundTripCell(s.platform.peak.roundTrips.api),
        roundTripCell(s.platform.peak.roundTrips.worker),
        roundTripCell(s.platform.peak.roundTrips.workerIdlePerSec),
        roundTripCell(s.platform.peak.roundTrips.workerNet),
      ]),
    },
    {
      title: 'End to end: what was committed (both phases)',
      columns: ['queue', 'model latency', 'workers × concurrency', 'inbound answered', 'failed', 'replies', 'POST failures', 'model ms p50 (Turn.modelMs)', 'bare durable answered / replies'],
      rows: scenarios.map((s) => [
        ...label(s),
        s.platform.answered,
        s.platform.failed,
        s.platform.replies,
        s.platform.postFailures,
        fmt(s.platform.half.modelMs.p50),
        `${s.durable.answered} / ${s.durable.replies}`,
      ]),
    },
  ];
  if (long) {
    const phaseRow = (kind: string, p: LongSessionPhase): (string | number)[] => [
      kind,
      p.turns,
      [p.cpuMsPerTurn.worker, p.cpuMsPerTurn.api, p.cpuMsPerTurn.postgres].map(fmt).join(' / '),
      fmt(longCost(p)),
      `${fmt(p.workMs.p50)} / ${fmt(p.workMs.p95)}`,
    ];
    tables.push({
      title: `End to end: a turn on a session with ${size.long.earlierMessages} earlier messages vs a fresh session (0 ms model, Redis queue, 1 worker)`,
      columns: ['sessions', 'turns', 'CPU ms per turn (worker / API / postgres)', 'worker + postgres', 'worker ms per turn p50 / p95 (totalMs − modelMs)'],
      rows: [phaseRow(`${size.long.sessions} fresh`, long.fresh), phaseRow(`${size.long.sessions} long`, long.long)],
    });
  }

  const full = ctx.size === 'full';
  const targets: TargetCheck[] = [];
  const zero = scenarios.filter((s) => s.latencyMs === 0);
  for (const s of zero) {
    const cpu = cpuTotal(s.platform.peak.cpuMsPerMessage, PLATFORM_CPU);
    targets.push({
      target: `CPU per answered message, worker + API + Postgres + Redis, ≤ ${CPU_MS_PER_MESSAGE_TARGET} ms (${caseName(s)})`,
      actual: `${fmt(cpu)} ms (${cpuMsCell(s.platform.peak.cpuMsPerMessage, PLATFORM_CPU)}); bare durable ${fmt(cpuTotal(s.durable.peak.cpuMsPerMessage, PLATFORM_CPU))} ms`,
      met: full ? cpu <= CPU_MS_PER_MESSAGE_TARGET : null,
    });
  }
  for (const s of zero) {
    targets.push({
      target: `e2e throughput ≥ 50% of the bare durable pipeline (${caseName(s)})`,
      actual: `${fmt(s.platform.peak.perSec)} vs ${fmt(s.durable.peak.perSec)} msg/s = ${percentOf(s.platform.peak.perSec, s.durable.peak.perSec)}`,
      met: full ? s.platform.peak.perSec >= 0.5 * s.durable.peak.perSec : null,
    });
  }
  for (const s of zero.filter((z) => z.backend === 'redis')) {
    targets.push({
      target: `e2e throughput ≥ 3× today’s ${TODAY.e2ePerSec} msg/s (${fmt(timesToday(TODAY.e2ePerSec))} msg/s; ${caseName(s)})`,
      actual: `${fmt(s.platform.peak.perSec)} msg/s = ${fmt(s.platform.peak.perSec / TODAY.e2ePerSec)}× today`,
      met: full ? s.platform.peak.perSec >= timesToday(TODAY.e2ePerSec) : null,
    });
  }
  for (const s of scenarios) {
    targets.push({
      target: `e2e throughput ≥ 50% of bare BullMQ (${caseName(s)})`,
      actual: `${fmt(s.platform.peak.perSec)} vs ${fmt(s.bare.peak.perSec)} msg/s = ${percentOf(s.platform.peak.perSec, s.bare.peak.perSec)}`,
      met: full ? s.platform.peak.perSec >= 0.5 * s.bare.peak.perSec : null,
    });
  }
  for (const s of scenarios) {
    const a = s.platform.half.added;
    targets.push({
      target: `added latency p50 ≤ 10 ms and p99 ≤ 50 ms at half of peak (${caseName(s)})`,
      actual: `p50 ${fmt(a.p50)} ms, p99 ${fmt(a.p99)} ms at ${fmt(s.platform.half.ratePerSec)} msg/s`,
      met: full ? (a.p50 ?? Infinity) <= 10 && (a.p99 ?? Infinity) <= 50 : null,
    });
  }
  for (const s of zero.filter((z) => z.backend === 'redis')) {
    // Judged less the workers' idle rate (the delivery poller, the sweeper: the clock's, not the messages'); older results have only the total.
    const { worker: gross, workerNet } = s.platform.peak.roundTrips;
    const trips = typeof workerNet === 'number' ? workerNet : gross;
    targets.push({
      target: `Postgres round trips per message in the worker = ${ROUND_TRIPS_TARGET.worker} (claim-and-load, commit; ${caseName(s)})`,
      actual: typeof workerNet === 'number' ? `${roundTripCell(workerNet)} less the idle rate (${roundTripCell(gross)} in all)` : roundTripCell(gross),
      met: full && typeof trips === 'number' ? trips <= ROUND_TRIPS_TARGET.worker + 0.005 : null,
    });
  }
  if (long) {
    const ratio = longCost(long.long) / Math.max(0.001, longCost(long.fresh));
    targets.push({
      target: `a turn on a session with ${size.long.earlierMessages} earlier messages costs ≤ ${LONG_SESSION_RATIO_TARGET}× a fresh session’s (worker + Postgres CPU per turn)`,
      actual:
        `${fmt(longCost(long.long))} vs ${fmt(longCost(long.fresh))} ms = ${fmt(ratio)}×; worker time per turn p50 ` +
        `${fmt(long.long.workMs.p50)} vs ${fmt(long.fresh.workMs.p50)} ms`,
      met: full ? ratio <= LONG_SESSION_RATIO_TARGET : null,
    });
  }

  const notes: string[] = [];
  for (const s of scenarios) {
    const expected = 2 * size.sessions * size.perSession;
    if (s.platform.answered !== expected || s.platform.replies !== expected || s.platform.postFailures > 0) {
      notes.push(
        `${caseName(s)}: ${s.platform.answered} of ${expected} messages answered, ${s.platform.replies} replies, ` +
          `${s.platform.postFailures} POST failures (last: ${s.platform.lastPostFailure || 'none'}) — the figures of this row are not valid.`,
      );
    }
    if (s.durable.answered !== expected || s.durable.replies !== expected || s.durable.postFailures > 0) {
      notes.push(`${caseName(s)}: the bare durable pipeline answered ${s.durable.answered} of ${expected} (${s.durable.replies} replies, ${s.durable.postFailures} POST failures) — its figures are not valid.`);
    }
  }
  if (long && (long.fresh.turns === 0 || long.long.turns === 0)) notes.push('The long-session comparison found no turns in one of its phases: its figures are not valid.');
  for (const [owner, file] of Object.entries(profiles)) {
    if (!file) continue;
    const summary = summarizeProfile(file, 12);
    tables.push(profileTable(`End to end: ${owner} CPU profile during the 0 ms peak, self time by package`, summary.byPackage));
    tables.push(profileTable(`End to end: ${owner} CPU profile during the 0 ms peak, hottest functions`, summary.byFunction));
    notes.push(
      `${owner === 'api' ? 'API' : 'Worker'} CPU profile (an extra 0 ms, 1-worker pass under the sampling profiler, peak phase; not in the figures above): ${path.relative(process.cwd(), file)} (busy ${summary.busyPercentOfWall}% of the sampled wall time).`,
    );
  }
  return {
    id: 'e2e',
    title: 'End to end: accepted → reply committed',
    description: description(size),
    tables,
    targets,
    notes,
    measuredAt: new Date().toISOString(),
    loadAverage: loadAvg,
    command: ctx.command,
  };
}

function description(size: E2eSize): string[] {
  return [
    `${size.sessions} sessions × ${size.perSession} messages posted to the built API (NODE_ENV=production, LOG_LEVEL=warn) and answered by ` +
      'built worker processes; the agent is the idle speaker played by the scripted provider with a simulated model latency ' +
      '(one speak call per turn; the sequential double-texting policy). Each worker process runs with WORKER_CONCURRENCY = ' +
      'sessions ÷ processes, so the total concurrency is one slot per session for the platform and both baselines. ' +
      '**Queue**: Redis (production), or Postgres mode (`QUEUE_BACKEND=postgres`: BullMQ’s Postgres backend in the bench database, ' +
      'leases and locks as rows), its baselines on BullMQ’s Postgres backend too.',
    '**Warm-up**: 16 one-message sessions answered first, so each worker has loaded its agent and the price tables, as a running ' +
      'worker has. **Peak**: all N×M messages posted as fast as the API takes them (16 requests in flight) while the workers answer; messages ' +
      'answered per second = messages ÷ (last `answeredAt` − first `createdAt`): the whole platform (API, worker, Postgres, Redis) ' +
      'sharing the two cores. **Half load**: new sessions get the same number of messages at half the measured peak rate ' +
      '(Poisson arrivals, round robin over sessions). **Added latency** per message = `Turn.queueWaitMs + Turn.totalMs − Turn.modelMs` ' +
      '(accepted → the commit’s last statement, minus the time in the model call). CPU % columns: share of one core used by each ' +
      'process group during the phase (200% = both cores); CPU ms per message: each group’s CPU time during the peak ÷ messages ' +
      '(Postgres: the bench database’s backends; Redis: every redis-server process, shared with other users of the machine).',
    '**Bare durable pipeline** (the honest limit: a message durable when accepted and when answered): a bare Fastify route that ' +
      'inserts the message with one prepared `pg` statement and adds a BullMQ job, and bare BullMQ workers (same processes and ' +
      'concurrency) that write the reply row and mark the message answered in one transaction (one statement, one round trip) after ' +
      'the same model latency; its own tables in the bench database, created and dropped by the bench; posted to by the same ' +
      'client as the platform, measured the same way from its rows (added latency = `answered_at − created_at − latency`, at half ' +
      'of its own peak). **Bare BullMQ**: `add` (16 producers in flight) → a processor that sleeps the model latency → ack; ' +
      'added latency = `finishedOn − timestamp − latency`.',
    '**Round trips**: the API’s and each worker’s `switchboard_pg_round_trips_total` (their metrics ports) read before and after ' +
      'the peak, ÷ messages; "not exported" when the apps do not have that counter. The workers also poll by the clock (the ' +
      'delivery dispatcher once a second per process, the sweeper): their round trips with nothing to do are counted for 3 s ' +
      'before the peak, and the target is judged on the workers’ figure less that rate over the peak’s time. **Long conversations** (0 ms, Redis, one ' +
      `worker, after the peak and half phases): ${size.long.sessions} session(s) given ${size.long.earlierMessages} earlier messages ` +
      'each (committed turns seeded with SQL, then VACUUM (ANALYZE) and a CHECKPOINT, as a conversation built over months has been) ' +
      'and as many fresh sessions (one earlier turn each); after one unmeasured turn per session of both kinds, each gets ' +
      `${size.long.turnsPerSession} messages per session (16 in flight); the target compares the worker’s and Postgres’s CPU per ` +
      'turn — the cost a history query that grows with the conversation would raise, unaffected by queueing — and the worker’s ' +
      'own time per turn is shown beside it.',
  ];
}
