// The worker side of the bare durable pipeline baseline, one process like one platform worker:
// per job it waits the simulated model latency, then writes the reply row and marks the message
// answered in one transaction — a single statement (a data-modifying CTE), so one round trip.
// No lease, no history read, no engine. Prints {"ready":true} once connected; stops on SIGTERM.
// Input: BARE_*, DURABLE_* variables, BARE_LATENCY_MS, BARE_CONCURRENCY, DURABLE_POOL_MAX.
import { Pool } from 'pg';
import { bareTargetFromEnv, bareWorker } from '../support/bare-queue';
import { DURABLE_QUEUE, durableTablesFromEnv } from './durable-tables';

const target = bareTargetFromEnv();
const tables = durableTablesFromEnv();
const latencyMs = Number(process.env.BARE_LATENCY_MS ?? 0);
const pool = new Pool({ connectionString: target.databaseUrl, max: Number(process.env.DURABLE_POOL_MAX ?? 10) });
const commit = {
  name: 'durable-commit',
  text: `WITH reply AS (INSERT INTO ${tables.replies} (message_id, text) VALUES ($1, $2))
         UPDATE ${tables.messages} SET status = 'answered', answered_at = clock_timestamp() WHERE id = $1 AND status = 'queued'`,
};

const worker = bareWorker(
  DURABLE_QUEUE,
  target,
  async (job) => {
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    await pool.query({ ...commit, values: [(job.data as { messageId: string }).messageId, 'Olá! Como posso ajudar?'] });
    return null;
  },
  { concurrency: Number(process.env.BARE_CONCURRENCY ?? 1), removeOnComplete: { count: 100_000 } },
);
worker.on('error', (err) => process.stderr.write(`durable worker error: ${err.message}\n`));
void worker.waitUntilReady().then(() => process.stdout.write(JSON.stringify({ ready: true }) + '\n'));
process.once('SIGTERM', () => void worker.close().then(() => pool.end()).then(() => process.exit(0)));
