import path from 'node:path';
import { Queue } from 'bullmq';
import { QUEUES, redisConnection } from '@switchboard/queue';
import { createTenantFixture } from '../../test/support/fixtures';
import { benchAgentConfig } from '../e2e/bench-agent';
import { MessagePoster } from '../e2e/message-poster';
import { BenchEnv } from '../support/bench-env';
import { loadAverage } from '../support/machine';
import { captureMemory, LOG_DIR, memoryReporterSetup, rssMB, startApiProcess, startWorkerProcesses, type NodeMemory } from '../support/processes';
import type { BenchContext, BenchResult } from '../support/results';
import { fmt, sleep } from '../support/stats';

// Worker RSS with many turns in flight at once: one worker process with WORKER_CONCURRENCY equal
// to the number of turns, one message per session (one turn per session holds its lease), and a
// simulated model latency long enough that every turn is inside its model call together.

const SIZES = {
  full: { inFlight: 100, latencyMs: 4000, waves: 3, settleMs: 2000 },
  smoke: { inFlight: 5, latencyMs: 500, waves: 1, settleMs: 200 },
};

interface Wave {
  wave: number;
  peakActive: number;
  rssAtPeak: number;
  maxRss: number;
  seconds: number;
}

export async function runMemoryBench(ctx: BenchContext): Promise<BenchResult> {
  const size = SIZES[ctx.size];
  const loadAvg = loadAverage();
  const env = await BenchEnv.create('mem', ctx.size);
  try {
    const prisma = env.prisma(2);
    const fixture = await createTenantFixture(prisma, { agentConfig: benchAgentConfig(size.latencyMs) });
    const appEnv = env.appEnv({ WORKER_CONCURRENCY: String(size.inFlight) });
    const api = await startApiProcess('mem-api', appEnv, ctx.built);
    const memoryDir = path.join(LOG_DIR, 'memory', `${Date.now()}`);
    const reporter = memoryReporterSetup(memoryDir);
    const [worker] = await startWorkerProcesses('mem-worker', 1, { ...appEnv, ...reporter.env }, ctx.built, reporter.nodeFlags);
    const breakdown: { when: string; m: NodeMemory }[] = [];
    const queue = new Queue(QUEUES.turns, { prefix: env.queuePrefix, connection: redisConnection(env.redisUrl) });
    const waves: Wave[] = [];
    let idleRss = 0;
    try {
      await sleep(size.settleMs);
      idleRss = rssMB(worker.pid);
      const idle = await captureMemory(worker.pid, memoryDir);
      if (idle) breakdown.push({ when: 'idle (after start)', m: idle });
      const poster = new MessagePoster(api.baseUrl, fixture.apiKey);
      for (let wave = 1; wave <= size.waves; wave++) {
        const t0 = Date.now();
        await poster.postAll(
          Array.from({ length: size.inFlight }, (_, i) => ({ session: `mem-${wave}-${i}`, text: 'Olá' })),
          20,
        );
        let peakActive = 0;
        let rssAtPeak = 0;
        let maxRss = 0;
        // Sample until every message of the wave is answered.
        for (;;) {
          const active = await queue.getActiveCount();
          const rss = rssMB(worker.pid);
          maxRss = Math.max(maxRss, rss);
          if (active > peakActive) {
            peakActive = active;
            rssAtPeak = rss;
            if (active >= size.inFlight && wave === size.waves) {
              const m = await captureMemory(worker.pid, memoryDir);
              if (m) breakdown.push({ when: `wave ${wave}, ${active} turns in flight`, m });
            }
          } else if (active === peakActive) rssAtPeak = Math.max(rssAtPeak, rss);
          const queued = await prisma.message.count({ where: { tenantId: fixture.tenant.id, status: 'queued' } });
          if (queued === 0 && active === 0) break;
          if (Date.now() - t0 > 120_000) throw new Error(`memory bench: wave ${wave} not answered within 120 s`);
          await sleep(100);
        }
        waves.push({ wave, peakActive, rssAtPeak, maxRss, seconds: (Date.now() - t0) / 1000 });
        if (poster.failures > 0) throw new Error(`memory bench: ${poster.failures} POSTs failed: ${poster.lastFailure}`);
      }
      const after = await captureMemory(worker.pid, memoryDir);
      if (after) breakdown.push({ when: 'after the last wave (no forced GC)', m: after });
      const live = await captureMemory(worker.pid, memoryDir, true);
      if (live) breakdown.push({ when: 'after the last wave, after a forced full GC', m: live });
    } finally {
      await queue.close();
      await worker.stop();
      await api.stop();
    }
    const answered = await prisma.message.count({ where: { tenantId: fixture.tenant.id, direction: 'inbound', status: 'answered' } });
    const worst = Math.max(...waves.map((w) => w.maxRss));
    const fullFlight = waves.every((w) => w.peakActive >= size.inFlight);
    return {
      id: 'memory',
      title: 'Memory: worker RSS with turns in flight',
      description: [
        `One built worker process (NODE_ENV=production, LOG_LEVEL=warn, WORKER_CONCURRENCY=${size.inFlight}); ${size.waves} wave(s) of ` +
          `${size.inFlight} messages to ${size.inFlight} new sessions, posted through the API; the scripted provider answers after ` +
          `${size.latencyMs} ms, so every turn of a wave is in its model call at the same time. RSS is read from /proc every 100 ms; ` +
          '"active" is the turns queue’s active job count at that moment.',
      ],
      tables: [
        {
          title: 'Memory: worker RSS (MB = 10^6 bytes)',
          columns: ['wave', 'peak active turns', 'RSS at peak', 'max RSS', 'wave seconds'],
          rows: [['idle (after start)', 0, fmt(idleRss), fmt(idleRss), ''], ...waves.map((w) => [w.wave, w.peakActive, fmt(w.rssAtPeak), fmt(w.maxRss), fmt(w.seconds)])],
        },
        {
          title: 'Memory: where the worker’s memory is (process.memoryUsage(), MB): JS heap vs the rest (code, wasm, native buffers)',
          columns: ['when', 'rss', 'heap total', 'heap used', 'external', 'array buffers', 'rss − heap total − external'],
          rows: breakdown.map(({ when, m }) => [
            when,
            ...[m.rss, m.heapTotal, m.heapUsed, m.external, m.arrayBuffers, m.rss - m.heapTotal - m.external].map((b) => fmt(b / 1e6)),
          ]),
        },
      ],
      targets: [
        {
          target: `worker RSS ≤ 300 MB with ${size.inFlight} turns in flight`,
          actual: `max ${fmt(worst)} MB (idle ${fmt(idleRss)} MB); ${answered} of ${size.inFlight * size.waves} messages answered`,
          met: ctx.size === 'full' && fullFlight ? worst <= 300 : null,
        },
      ],
      notes: fullFlight ? [] : [`Not every wave reached ${size.inFlight} active turns at once: the figure is a lower bound.`],
      measuredAt: new Date().toISOString(),
      loadAverage: loadAvg,
      command: ctx.command,
    };
  } finally {
    await env.dispose();
  }
}
