import path from 'node:path';
import { createTenantFixture } from '../../test/support/fixtures';
import { startDurableServer } from '../durable/durable-pipeline';
import { createDurableTables, dropDurableTables, durableTables } from '../durable/durable-tables';
import { BenchEnv } from '../support/bench-env';
import { runScriptForJson, startServingScript } from '../support/child-script';
import { summarizeProfile } from '../support/cpu-profile';
import { cpuMsPer, cpuSnapshot } from '../support/cpu-usage';
import { loadAverage } from '../support/machine';
import { captureProfile, LOG_DIR, profilerSetup, startApiProcess } from '../support/processes';
import type { BenchContext, BenchResult, Table } from '../support/results';
import { startRoundTripCount, type RoundTrips } from '../support/round-trips';
import { fmt, percentOf } from '../support/stats';
import { ROUND_TRIPS_TARGET, TODAY, timesToday } from '../support/targets';
import type { LoadResult, LoadSpec } from './load-generator';

// POST /v1/messages under load from a separate process (autocannon), against two baselines in
// the same run: a bare Fastify route answering 202, and the bare durable route (one `pg` INSERT
// plus the BullMQ add: the least a durable accept costs). Rounds alternate the baselines and the
// API, so a burst of noise on the shared machine hits all three; the best round of each is compared.

const SIZES = {
  full: { connections: 16, durationS: 10, warmupS: 3, sessions: 1000, rounds: 2 },
  smoke: { connections: 2, durationS: 1, warmupS: 0, sessions: 4, rounds: 1 },
};

const LOAD_GENERATOR = 'bench/ingest/load-generator.ts';
const BARE_SERVER = 'bench/ingest/bare-server.ts';

export async function runIngestBench(ctx: BenchContext & { profile?: boolean }): Promise<BenchResult> {
  const size = SIZES[ctx.size];
  const loadAvg = loadAverage();
  const env = await BenchEnv.create('ingest', ctx.size);
  try {
    const prisma = env.prisma(2);
    const fixture = await createTenantFixture(prisma);
    const base: Omit<LoadSpec, 'url' | 'headers'> = { sessions: size.sessions, connections: size.connections, durationS: size.durationS, warmupS: size.warmupS };

    const bareRuns: Measured[] = [];
    const durableRuns: Measured[] = [];
    const apiRuns: Measured[] = [];
    const apiRoundTrips: RoundTrips[] = [];
    const durable = durableTables('ingest');
    await createDurableTables(env.databaseUrl, durable);
    const durableTarget = { backend: 'redis' as const, redisUrl: env.redisUrl, databaseUrl: env.databaseUrl, prefix: `${env.queuePrefix}-durable` };
    const apiUrl = (baseUrl: string): LoadSpec => ({ ...base, url: `${baseUrl}/v1/messages`, headers: { authorization: `Bearer ${fixture.apiKey}` } });
    for (let round = 1; round <= size.rounds; round++) {
      const bare = await startServingScript(BARE_SERVER);
      try {
        ctx.log(`ingest round ${round}: bare Fastify`);
        const spec = { ...base, url: `http://127.0.0.1:${String(bare.hello.port)}/v1/messages`, headers: {} };
        bareRuns.push(await measured(bare.child.pid!, spec));
      } finally {
        await bare.stop();
      }
      const durableServer = await startDurableServer(durableTarget, durable);
      try {
        ctx.log(`ingest round ${round}: bare durable route (pg INSERT + BullMQ add)`);
        const spec = { ...base, url: `http://127.0.0.1:${String(durableServer.hello.port)}/v1/messages`, headers: {} };
        durableRuns.push(await measured(durableServer.child.pid!, spec, env.databaseName));
      } finally {
        await durableServer.stop();
      }
      const api = await startApiProcess(`ingest-api-${round}`, env.appEnv(), ctx.built);
      try {
        ctx.log(`ingest round ${round}: POST /v1/messages (${ctx.built ? 'built' : 'source'} API)`);
        const roundTrips = await startRoundTripCount([api.metricsUrl]);
        const run = await measured(api.pid, apiUrl(api.baseUrl), env.databaseName);
        apiRuns.push(run);
        apiRoundTrips.push(await roundTrips.perUnit(run.ok + run.warmupOk));
      } finally {
        await api.stop();
      }
    }

    // An extra API round under the sampling profiler, kept out of the figures.
    let profileFile: string | undefined;
    if (ctx.profile) {
      const profileDir = path.join(LOG_DIR, 'profiles', `ingest-${Date.now()}`);
      const profiler = profilerSetup(profileDir);
      const api = await startApiProcess('ingest-api-profiled', { ...env.appEnv(), ...profiler.env }, ctx.built, profiler.nodeFlags);
      try {
        ctx.log('ingest: extra API round under the profiler');
        // The first capture throws away start-up (module loading, JIT).
        await captureProfile(api.pid, profileDir);
        await runScriptForJson<LoadResult>(LOAD_GENERATOR, [JSON.stringify(apiUrl(api.baseUrl))]);
        profileFile = await captureProfile(api.pid, profileDir);
      } finally {
        await api.stop();
      }
    }

    // Every 202 must be a stored message: a bench that measured failures would be worthless.
    const stored = await prisma.message.count({ where: { tenantId: fixture.tenant.id } });
    const accepted = apiRuns.reduce((n, r) => n + r.ok, 0);
    const durableStored = await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${durable.messages}`);
    const durableAccepted = durableRuns.reduce((n, r) => n + r.ok + r.warmupOk, 0);
    await dropDurableTables(env.databaseUrl, durable);
    const bestBare = best(bareRuns);
    const bestDurable = best(durableRuns);
    const bestApi = best(apiRuns);
    const ratio = bestApi.rps / Math.max(1, bestBare.rps);
    const durableRatio = bestApi.rps / Math.max(1, bestDurable.rps);
    const roundTrips = apiRoundTrips.find((n) => typeof n === 'number') ?? apiRoundTrips[0];
    const full = ctx.size === 'full';

    const tables: Table[] = [
      {
        title: 'Ingest: requests per second and latency (ms) under load',
        columns: ['server', 'round', 'req/s', 'p50', 'p95', 'p99', 'max', 'non-2xx', 'errors', 'CPU ms/request (server / postgres / redis)'],
        rows: [
          ...bareRuns.map((r, i) => row('bare Fastify route (202)', i + 1, r)),
          ...durableRuns.map((r, i) => row('bare durable route (INSERT + add)', i + 1, r)),
          ...apiRuns.map((r, i) => row('POST /v1/messages (API)', i + 1, r)),
        ],
      },
      {
        title: 'Ingest: the API as a ratio of each baseline (best round of each)',
        columns: ['baseline', 'API req/s', 'baseline req/s', 'API / baseline', 'CPU per request, API ÷ baseline (server + postgres + redis)'],
        rows: [
          ['bare durable route (INSERT + add)', fmt(bestApi.rps), fmt(bestDurable.rps), percentOf(bestApi.rps, bestDurable.rps), `${fmt(totalCpu(bestApi) / Math.max(0.001, totalCpu(bestDurable)))}×`],
          ['bare Fastify route (202)', fmt(bestApi.rps), fmt(bestBare.rps), percentOf(bestApi.rps, bestBare.rps), `${fmt(totalCpu(bestApi) / Math.max(0.001, totalCpu(bestBare)))}×`],
        ],
      },
      {
        title: 'Ingest: what was stored, and Postgres round trips per accepted message (the API’s switchboard_pg_round_trips_total)',
        columns: ['API messages stored', 'API 202s counted', 'durable route rows stored', 'durable route 202s counted', 'API round trips per message (per round)'],
        rows: [[stored, accepted, Number(durableStored[0].n), durableAccepted, apiRoundTrips.map(roundTripCell).join(' / ')]],
      },
    ];
    const notes: string[] = [];
    if (Number(durableStored[0].n) < durableAccepted) notes.push(`Only ${durableStored[0].n} of ${durableAccepted} messages the bare durable route accepted were stored: its rows are not valid.`);
    if (stored < accepted) notes.push(`Only ${stored} of ${accepted} accepted messages were stored: the run is not valid.`);
    if (profileFile) {
      const summary = summarizeProfile(profileFile, 12);
      tables.push(profileTable('Ingest: API CPU profile, self time by package (share of busy samples)', summary.byPackage));
      tables.push(profileTable('Ingest: API CPU profile, hottest functions (self time)', summary.byFunction));
      notes.push(`API CPU profile (an extra round under the sampling profiler, not in the figures above): ${path.relative(process.cwd(), profileFile)} (busy ${summary.busyPercentOfWall}% of the sampled wall time).`);
    }
    return {
      id: 'ingest',
      title: 'Ingest: POST /v1/messages',
      description: [
        `autocannon in its own process, ${size.connections} connections, ${size.warmupS} s warm-up then ${size.durationS} s measured, ` +
          `${size.rounds} round(s) alternating baseline and API. Each request posts \`{ session, text }\` to one of ${size.sessions} sessions ` +
          'with the channel API key. The API is the built JS (NODE_ENV=production, LOG_LEVEL=warn) on a fresh migrated database and its own ' +
          'queue prefix, no worker running (jobs wait in Redis). Per request the API checks the key (one indexed SELECT), upserts the session ' +
          'and inserts the message in one transaction under row-level security, and adds the BullMQ job. The baseline is a bare Fastify ' +
          'route of the same version that parses the JSON body and answers 202. The **bare durable route** is the same Fastify with what ' +
          'a durable accept needs at least: one prepared `pg` INSERT into its own table (created by the bench in the bench database, ' +
          'dropped after) and the BullMQ `add` with the platform’s turn-job options, on a `pg` pool of the API’s size (10).',
        'Round trips: the API’s `switchboard_pg_round_trips_total` (Prometheus, its metrics port) read before and after each API round, ' +
          'divided by the 202s of the round (warm-up included); "not exported" when the API does not have that counter.',
      ],
      tables,
      targets: [
        {
          target: 'ingest ≥ 50% of the bare Fastify route’s requests per second',
          actual: `${fmt(bestApi.rps)} vs ${fmt(bestBare.rps)} req/s = ${percentOf(bestApi.rps, bestBare.rps)}`,
          met: full ? ratio >= 0.5 : null,
        },
        {
          target: 'ingest ≥ 50% of the bare durable route’s requests per second (its INSERT + add)',
          actual: `${fmt(bestApi.rps)} vs ${fmt(bestDurable.rps)} req/s = ${percentOf(bestApi.rps, bestDurable.rps)}`,
          met: full ? durableRatio >= 0.5 : null,
        },
        {
          target: `ingest ≥ 3× today’s ${fmt(TODAY.ingestPerSec)} req/s (${fmt(timesToday(TODAY.ingestPerSec))} req/s)`,
          actual: `${fmt(bestApi.rps)} req/s = ${fmt(bestApi.rps / TODAY.ingestPerSec)}× today`,
          met: full ? bestApi.rps >= timesToday(TODAY.ingestPerSec) : null,
        },
        {
          target: 'Postgres round trips per accepted message at ingest = 1 (the API’s switchboard_pg_round_trips_total)',
          actual: roundTripCell(roundTrips),
          met: full && typeof roundTrips === 'number' ? roundTrips <= ROUND_TRIPS_TARGET.ingest + 0.005 : null,
        },
      ],
      notes,
      measuredAt: new Date().toISOString(),
      loadAverage: loadAvg,
      command: ctx.command,
    };
  } finally {
    await env.dispose();
  }
}

interface Measured extends LoadResult {
  /** CPU milliseconds per answered request (warm-up included) of the server, Postgres and Redis. */
  cpuMsPerRequest: { server: number; postgres: number; redis: number };
}

/**
 * Runs the load generator against a server and reads the CPU time the server, Postgres and Redis
 * spent on it: CPU per request does not depend on how busy the shared machine is, requests per
 * second does.
 */
async function measured(serverPid: number, spec: LoadSpec, database?: string): Promise<Measured> {
  const pg = database ? { database } : 'none';
  const before = await cpuSnapshot({ server: [serverPid] }, pg);
  const r = await runScriptForJson<LoadResult>(LOAD_GENERATOR, [JSON.stringify(spec)]);
  const per = cpuMsPer(before, await cpuSnapshot({ server: [serverPid] }, pg), r.ok + r.warmupOk);
  return { ...r, cpuMsPerRequest: { server: per.server, postgres: per.postgres, redis: per.redis } };
}

export function roundTripCell(n: RoundTrips | undefined): string {
  return typeof n === 'number' ? fmt(n) : (n ?? '–');
}

function best<T extends LoadResult>(runs: T[]): T {
  return runs.reduce((a, b) => (b.rps > a.rps ? b : a));
}

function row(server: string, round: number, r: Measured): (string | number)[] {
  const cpu = r.cpuMsPerRequest;
  return [server, round, fmt(r.rps), fmt(r.latencyMs.p50), fmt(r.latencyMs.p95), fmt(r.latencyMs.p99), fmt(r.latencyMs.max), r.non2xx, r.errors, `${fmt(cpu.server)} / ${fmt(cpu.postgres)} / ${fmt(cpu.redis)}`];
}

function totalCpu(r: Measured): number {
  return r.cpuMsPerRequest.server + r.cpuMsPerRequest.postgres + r.cpuMsPerRequest.redis;
}

export function profileTable(title: string, shares: { name: string; percent: number }[]): Table {
  return { title, columns: ['where', 'self %'], rows: shares.map((s) => [s.name, s.percent]) };
}
