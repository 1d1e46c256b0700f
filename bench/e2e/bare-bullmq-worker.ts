// The worker side of the bare BullMQ baseline, run as its own process like the real worker: a
// processor that waits the simulated model latency and returns. Nothing else: no database, no
// lease, no engine. Input: BARE_* environment variables; prints {"ready":true} once connected.
import { Worker } from 'bullmq';
import { redisConnection } from '@switchboard/queue';

const latencyMs = Number(process.env.BARE_LATENCY_MS ?? 0);
const worker = new Worker(
  process.env.BARE_QUEUE ?? 'bare',
  async () => {
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    return null;
  },
  {
    prefix: process.env.BARE_PREFIX,
    connection: redisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    concurrency: Number(process.env.BARE_CONCURRENCY ?? 1),
    removeOnComplete: { count: 100_000 },
  },
);
worker.on('error', (err) => process.stderr.write(`bare worker error: ${err.message}\n`));
void worker.waitUntilReady().then(() => process.stdout.write(JSON.stringify({ ready: true }) + '\n'));
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
