import { figure, type HalfLoadFigure, type ThroughputFigure } from '../e2e/bare-bullmq';
import { MessagePoster, sessionMessages } from '../e2e/message-poster';
import { poissonSchedule, runOpenLoop } from '../e2e/poisson';
import { bareTargetEnv, type BareQueueTarget } from '../support/bare-queue';
import { startServingScript, type ServingScript } from '../support/child-script';
import { cpuMsPer, cpuSnapshot } from '../support/cpu-usage';
import { sleep, summarize } from '../support/stats';
import { createDurableTables, dropDurableTables, durableTables, durableTablesEnv, withClient, type DurableTables } from './durable-tables';

// The bare durable pipeline end to end: the durable route (insert + add) and bare durable workers
// (one-transaction commit), loaded by the same MessagePoster as the platform and measured the
// same way, from the rows: answered per second = messages ÷ (last answered_at − first created_at);
// added latency = answered_at − created_at − model latency.

const SERVER = 'bench/durable/durable-server.ts';
const WORKER = 'bench/durable/durable-worker.ts';

export interface DurableSpec {
  /** Unique per scenario: names the tables. */
  id: string;
  target: BareQueueTarget;
  databaseName: string;
  latencyMs: number;
  processes: number;
  concurrencyPerProcess: number;
  sessions: number;
  perSession: number;
  timeoutMs: number;
}

export interface DurableRun {
  peak: ThroughputFigure & { cpuMsPerMessage: Record<string, number> };
  half: HalfLoadFigure;
  answered: number;
  replies: number;
  postFailures: number;
}

/** Starts the durable route on the given tables and queue (for ingest and end to end). */
export function startDurableServer(target: BareQueueTarget, tables: DurableTables): Promise<ServingScript> {
  return startServingScript(SERVER, [], { ...bareTargetEnv(target), ...durableTablesEnv(tables) });
}

export async function runDurablePipeline(spec: DurableSpec): Promise<DurableRun> {
  const tables = durableTables(spec.id);
  const url = spec.target.databaseUrl;
  await createDurableTables(url, tables);
  const children: ServingScript[] = [];
  let poster: MessagePoster | undefined;
  try {
    const server = await startDurableServer(spec.target, tables);
    children.push(server);
    for (let i = 0; i < spec.processes; i++) {
      children.push(
        await startServingScript(WORKER, [], {
          ...bareTargetEnv(spec.target),
          ...durableTablesEnv(tables),
          BARE_LATENCY_MS: String(spec.latencyMs),
          BARE_CONCURRENCY: String(spec.concurrencyPerProcess),
        }),
      );
    }
    poster = new MessagePoster(`http://127.0.0.1:${String(server.hello.port)}`, 'none');
    const pids = { worker: children.slice(1).map((c) => c.child.pid!), api: [server.child.pid!], bench: [process.pid] };
    const pg = { database: spec.databaseName };

    const cpu0 = await cpuSnapshot(pids, pg);
    await poster.postAll(sessionMessages('peak', spec.sessions, spec.perSession), 16);
    await waitUntilAnswered(url, tables, spec.timeoutMs);
    const cpu1 = await cpuSnapshot(pids, pg);
    const p = await withClient(url, (c) =>
      c.query<{ count: string; first: Date; last: Date }>(
        `SELECT count(*) AS count, min(created_at) AS first, max(answered_at) AS last FROM ${tables.messages} WHERE session_key LIKE 'peak-%'`,
      ),
    );
    const count = Number(p.rows[0].count);
    const peak = { ...figure(count, p.rows[0].last.getTime() - p.rows[0].first.getTime()), cpuMsPerMessage: cpuMsPer(cpu0, cpu1, count) };

    const rate = Math.max(1, peak.perSec / 2);
    const messages = sessionMessages('half', spec.sessions, spec.perSession);
    const h0 = Date.now();
    await runOpenLoop(poissonSchedule(messages.length, rate), (i) => poster!.post(messages[i]));
    await waitUntilAnswered(url, tables, spec.timeoutMs);
    const half = await withClient(url, (c) =>
      c.query<{ created_at: Date; answered_at: Date }>(`SELECT created_at, answered_at FROM ${tables.messages} WHERE session_key LIKE 'half-%'`),
    );
    const h1 = Math.max(...half.rows.map((r) => r.answered_at.getTime()));
    const check = await withClient(url, (c) =>
      c.query<{ answered: string; replies: string }>(
        `SELECT (SELECT count(*) FROM ${tables.messages} WHERE status = 'answered') AS answered, (SELECT count(*) FROM ${tables.replies}) AS replies`,
      ),
    );
    return {
      peak,
      half: {
        ratePerSec: rate,
        achievedPerSec: half.rows.length / ((h1 - h0) / 1000),
        added: summarize(half.rows.map((r) => r.answered_at.getTime() - r.created_at.getTime() - spec.latencyMs)),
      },
      answered: Number(check.rows[0].answered),
      replies: Number(check.rows[0].replies),
      postFailures: poster.failures,
    };
  } finally {
    poster?.close();
    await Promise.all(children.map((c) => c.stop()));
    await dropDurableTables(url, tables);
  }
}

async function waitUntilAnswered(databaseUrl: string, tables: DurableTables, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await withClient(databaseUrl, async (c) => {
    for (;;) {
      const { rows } = await c.query<{ queued: string }>(`SELECT count(*) AS queued FROM ${tables.messages} WHERE status = 'queued'`);
      if (Number(rows[0].queued) === 0) return;
      if (Date.now() > deadline) throw new Error(`bare durable pipeline: ${rows[0].queued} messages still queued after ${timeoutMs} ms`);
      await sleep(100);
    }
  });
}
