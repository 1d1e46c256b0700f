import type { Queue } from 'bullmq';
import { bareQueue, bareTargetEnv, type BareQueueTarget } from '../support/bare-queue';
import { startServingScript, type ServingScript } from '../support/child-script';
import { cpuMsPer, cpuSnapshot } from '../support/cpu-usage';
import { sleep, summarize, type LatencySummary } from '../support/stats';
import { poissonSchedule, runOpenLoop } from './poisson';

// The baseline of the end-to-end bench: bare BullMQ, add → process (wait the simulated model
// latency) → ack, with the same number of worker processes and the same total concurrency as
// the platform run it is compared with, on the platform's backend (Redis, or BullMQ's Postgres
// backend in Postgres mode).

const BARE_WORKER = 'bench/e2e/bare-bullmq-worker.ts';
const QUEUE = 'bare';

export interface BareSpec {
  target: BareQueueTarget;
  /** The bench database: its backends count as the baseline's Postgres CPU in Postgres mode. */
  databaseName: string;
  latencyMs: number;
  processes: number;
  concurrencyPerProcess: number;
  jobs: number;
  timeoutMs: number;
}

export interface ThroughputFigure {
  count: number;
  seconds: number;
  perSec: number;
}

export interface HalfLoadFigure {
  ratePerSec: number;
  achievedPerSec: number;
  added: LatencySummary;
}

export async function runBareBullmq(spec: BareSpec): Promise<{ peak: ThroughputFigure & { cpuMsPerJob: Record<string, number> }; half: HalfLoadFigure }> {
  const queue = bareQueue(QUEUE, spec.target);
  const workers: ServingScript[] = [];
  try {
    for (let i = 0; i < spec.processes; i++) {
      workers.push(
        await startServingScript(BARE_WORKER, [], {
          ...bareTargetEnv(spec.target),
          BARE_QUEUE: QUEUE,
          BARE_LATENCY_MS: String(spec.latencyMs),
          BARE_CONCURRENCY: String(spec.concurrencyPerProcess),
        }),
      );
    }

    // Peak: jobs added as fast as 16 producers can (as the platform's messages are posted) while
    // the workers take them; jobs per second from the first add to the last ack.
    const pids = { worker: workers.map((w) => w.child.pid!), bench: [process.pid] };
    const pg = spec.target.backend === 'postgres' ? { database: spec.databaseName } : 'none';
    const cpu0 = await cpuSnapshot(pids, pg);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < spec.jobs) await queue.add('peak', { i: next++ });
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    await waitForCompleted(queue, spec.jobs, spec.timeoutMs);
    const cpu1 = await cpuSnapshot(pids, pg);
    const peakJobs = (await queue.getJobs(['completed'], 0, -1)).filter((j) => j.name === 'peak');
    const t0 = Math.min(...peakJobs.map((j) => j.timestamp));
    const t1 = Math.max(...peakJobs.map((j) => j.finishedOn ?? 0));
    const peak = { ...figure(peakJobs.length, t1 - t0), cpuMsPerJob: cpuMsPer(cpu0, cpu1, peakJobs.length) };

    // Half of peak: jobs arrive one by one (Poisson) at half the peak rate; added latency is
    // add → acked minus the simulated model time.
    const rate = Math.max(1, peak.perSec / 2);
    const schedule = poissonSchedule(spec.jobs, rate);
    const h0 = Date.now();
    await runOpenLoop(schedule, async (i) => void (await queue.add('half', { i })));
    await waitForCompleted(queue, spec.jobs * 2, spec.timeoutMs);
    const halfJobs = (await queue.getJobs(['completed'], 0, -1)).filter((j) => j.name === 'half');
    const h1 = Math.max(...halfJobs.map((j) => j.finishedOn ?? 0));
    return {
      peak,
      half: {
        ratePerSec: rate,
        achievedPerSec: halfJobs.length / ((h1 - h0) / 1000),
        added: summarize(halfJobs.map((j) => (j.finishedOn ?? 0) - j.timestamp - spec.latencyMs)),
      },
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}

async function waitForCompleted(queue: Queue, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if (counts.failed > 0) throw new Error(`bare BullMQ: ${counts.failed} jobs failed`);
    if (counts.completed >= count) return;
    if (Date.now() > deadline) throw new Error(`bare BullMQ: only ${counts.completed} of ${count} jobs completed in time`);
    await sleep(50);
  }
}

export function figure(count: number, ms: number): ThroughputFigure {
  const seconds = Math.max(ms, 1) / 1000;
  return { count, seconds, perSec: count / seconds };
}
