import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { assertPostgresModeSlot, isPostgresMode } from './postgres-mode-slot';

// Runs the real worker (apps/worker/src/main.ts) as a child process for integration tests, with
// the test run's DATABASE_URL, REDIS_URL and QUEUE_PREFIX. Resolves once it logs "worker ready".

const ROOT = path.resolve(__dirname, '../..');
// Generous: starting from TypeScript sources takes seconds, and more on a loaded 2-core machine.
const READY_TIMEOUT_MS = 90_000;

export interface WorkerProcess {
  readonly pid: number;
  /** Where its stdout and stderr go (under .tmp/), for reading after a failure. */
  readonly logFile: string;
  /** Every JSON log line the worker wrote so far, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Sends `signal` (default SIGTERM) and resolves with the exit code once the process exits. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL: the crash case. Resolves once the process is gone. */
  kill(): Promise<void>;
  readonly exited: Promise<number | null>;
}

export function startWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.WORKER_LOG_LEVEL ?? 'info',
    DATABASE_URL: requireEnv('DATABASE_URL'),
    REDIS_URL: requireEnv('REDIS_URL'),
    QUEUE_PREFIX: requireEnv('QUEUE_PREFIX'),
    // The test database is shared by every suite: a sweeper here would answer other tests'
    // deliberately queued messages. Tests that want one pass their own interval.
    SWEEPER_INTERVAL_MS: '3600000',
    // Same for webhook deliveries: tests that deliver run their own dispatcher.
    DELIVERY_POLL_MS: '3600000',
    // Several workers run at once: no fixed metrics port. Tests that scrape pass a free one.
    WORKER_METRICS_PORT: '0',
    // Many workers and APIs run at once against one Postgres (100 connections): small pools.
    DATABASE_POOL_MAX: '5',
    // Postgres mode: each of a worker's BullMQ objects keeps a pool of its own (~24 connections
    // at 4 each). Even at 2, two such suites side by side ran out of Postgres's 100: such suites
    // also hold the Postgres-mode slot (postgres-mode-slot.ts), one at a time.
    QUEUE_PG_POOL_MAX: '2',
    ...env,
  };
  if (isPostgresMode(childEnv)) assertPostgresModeSlot('a worker');
  const child: ChildProcess = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/worker/src/main.ts'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });

  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const logFile = path.join(ROOT, '.tmp', `worker-${env.QUEUE_PREFIX ?? process.env.QUEUE_PREFIX}-${child.pid}.log`);
  // 'close', not 'exit': 'exit' may come before the last of stdout is read, and a test that reads
  // the shutdown's log lines right after stop() then missed them (a loaded CI machine did).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  return new Promise<WorkerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not log "worker ready" within ${READY_TIMEOUT_MS} ms. stderr: ${stderr.slice(-2000)}`));
    }, READY_TIMEOUT_MS);

    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      appendFileSync(logFile, chunk);
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const entry = parseLine(line);
        if (!entry) continue;
        logs.push(entry);
        if (entry.msg === 'worker ready') {
          clearTimeout(timer);
          resolve(handle);
        }
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      appendFileSync(logFile, chunk);
      stderr += chunk;
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before it was ready. stderr: ${stderr.slice(-2000)}`));
    });

    const handle: WorkerProcess = {
      pid: child.pid!,
      logFile,
      logs,
      exited,
      async stop(signal: NodeJS.Signals = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
      async kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
  });
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function requireEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run worker integration tests through jest's integration project (globalSetup sets it).`);
  return v;
}
