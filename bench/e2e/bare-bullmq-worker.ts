// The worker side of the bare BullMQ baseline, run as its own process like the real worker: a
// processor that waits the simulated model latency and returns. Nothing else: no database, no
// lease, no engine. Input: BARE_* environment variables (BARE_BACKEND: redis or postgres); prints {"ready":true} once connected.
import { bareTargetFromEnv, bareWorker } from '../support/bare-queue';

const latencyMs = Number(process.env.BARE_LATENCY_MS ?? 0);
const worker = bareWorker(
  process.env.BARE_QUEUE ?? 'bare',
  bareTargetFromEnv(),
  async () => {
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    return null;
  },
  { concurrency: Number(process.env.BARE_CONCURRENCY ?? 1), removeOnComplete: { count: 100_000 } },
);
worker.on('error', (err) => process.stderr.write(`bare worker error: ${err.message}\n`));
void worker.waitUntilReady().then(() => process.stdout.write(JSON.stringify({ ready: true }) + '\n'));
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
