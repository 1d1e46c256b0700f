// `npm run chaos`: the chaos run at the large size (10,000 messages over 500 sessions,
// 3 workers), on the same Postgres and Redis the tests use. Prints the report; exits 1 when
// anything was lost, duplicated or reordered. Flags: --sessions N --messages N --workers N
// --load-seconds N --seed N --backend redis|postgres.
import { parseArgs } from 'node:util';
import { formatReport, runChaos } from './support/chaos-run';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '500' },
      messages: { type: 'string', default: '20' },
      workers: { type: 'string', default: '3' },
      'load-seconds': { type: 'string', default: '150' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      backend: { type: 'string', default: 'redis' },
    },
  });
  process.env.NODE_ENV = 'test';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  // startWorker insists on the test run's settings (jest's globalSetup sets them); the chaos run
  // passes its own database, Redis and queue prefix to every process, these are never used.
  process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
  process.env.QUEUE_PREFIX ??= 'sbt-chaos-cli';
  const started = Date.now();
  const report = await runChaos({
    sessions: Number(values.sessions),
    messagesPerSession: Number(values.messages),
    workers: Number(values.workers),
    loadMs: Number(values['load-seconds']) * 1000,
    seed: Number(values.seed),
    backend: values.backend === 'postgres' ? 'postgres' : 'redis',
    settleTimeoutMs: 600_000,
    log: (line) => console.log(line),
  });
  console.log(`\nchaos report (seed ${values.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n${formatReport(report)}`);
  const bad = report.workerCrashes + report.lost + report.duplicated + report.outOfOrder + report.usageMismatch.length + report.refusedWithoutRetryAfter + report.serverErrors;
  process.exitCode = bad === 0 && !report.apiRestarted ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
