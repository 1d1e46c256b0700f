import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createBullQueue, QUEUES } from '@switchboard/queue';
import { freePort, PortTakenError, retryWhilePortTaken } from '../../test/support/api-process';
import { sleep } from './stats';

// Starts the real API and worker as child processes: the built JS (dist/) for published
// figures, or the sources through swc for the smoke test (no build step, slower to start).

export const ROOT = path.resolve(__dirname, '../..');
export const LOG_DIR = path.join(ROOT, '.tmp', 'bench');

// Built into .tmp/bench-dist (bench/build/tsconfig.*.json), not dist/: other people's builds
// delete and rewrite dist/ (nest-cli deleteOutDir) and must not pull the apps from under a run.
const ENTRY = {
  api: { built: '.tmp/bench-dist/api/apps/api/src/main.js', source: 'apps/api/src/main.ts' },
  worker: { built: '.tmp/bench-dist/worker/apps/worker/src/main.js', source: 'apps/worker/src/main.ts' },
} as const;

export interface AppProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly logFile: string;
  /** Its Prometheus endpoint (each app gets a free metrics port; the bench reads round trips there). */
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

/** The V8 flags production starts each app with (docker-compose.yml, Dockerfile): measured as run. */
const PRODUCTION_NODE_FLAGS = { api: [], worker: ['--max-semi-space-size=4'] } as const;

/** Node arguments that run an app's entry point, built or from source. */
function nodeArgs(app: keyof typeof ENTRY, built: boolean, extraNodeArgs: string[]): string[] {
  const flags = [...PRODUCTION_NODE_FLAGS[app], ...extraNodeArgs];
  return built ? [...flags, ENTRY[app].built] : [...flags, '-r', '@swc-node/register', ENTRY[app].source];
}

function spawnApp(app: keyof typeof ENTRY, name: string, env: Record<string, string>, built: boolean, metricsPort: number, nodeFlags: string[] = []): AppProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${name}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, nodeArgs(app, built, nodeFlags), {
    cwd: ROOT,
    // Only what the app needs: no jest or test variables leak into the measured process.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: built ? 'production' : 'test',
      LOG_LEVEL: 'warn',
      [app === 'api' ? 'API_METRICS_PORT' : 'WORKER_METRICS_PORT']: String(metricsPort),
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    logFile,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface ApiHandle extends AppProcess {
  readonly baseUrl: string;
}

/**
 * Starts the API on a free port and resolves once /health/ready answers 200. A port taken between
 * freePort and the API's listen (EADDRINUSE) is tried again on new ports, up to three times.
 */
export function startApiProcess(name: string, env: Record<string, string>, built: boolean, nodeFlags: string[] = []): Promise<ApiHandle> {
  return retryWhilePortTaken(() => startApiOnFreePorts(name, env, built, nodeFlags));
}

async function startApiOnFreePorts(name: string, env: Record<string, string>, built: boolean, nodeFlags: string[]): Promise<ApiHandle> {
  const port = await freePort();
  const app = spawnApp('api', name, { ...env, PORT: String(port), HOST: '127.0.0.1' }, built, await freePort(), nodeFlags);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) {
      const message = `API exited (${app.child.exitCode}) while starting:\n${tail(app.logFile)}`;
      throw message.includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    try {
      if ((await fetch(`${baseUrl}/health/ready`)).status === 200) return { ...app, baseUrl };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await app.stop();
  throw new Error(`API did not become ready within 90 s:\n${tail(app.logFile)}`);
}

/**
 * Starts `count` worker processes and resolves once all of them have a BullMQ worker connected
 * to the turns queue (they log at `warn`, so there is no "ready" line to wait for).
 */
export async function startWorkerProcesses(
  name: string,
  count: number,
  env: Record<string, string>,
  built: boolean,
  nodeFlags: string[] = [],
): Promise<AppProcess[]> {
  const workers: AppProcess[] = [];
  for (let i = 0; i < count; i++) workers.push(spawnApp('worker', `${name}-${i + 1}`, env, built, await freePort(), nodeFlags));
  // On the workers' backend (QUEUE_BACKEND=postgres: BullMQ's Postgres backend in the bench database).
  const queue = createBullQueue(QUEUES.turns, {
    QUEUE_BACKEND: env.QUEUE_BACKEND === 'postgres' ? 'postgres' : 'redis',
    REDIS_URL: env.REDIS_URL,
    DATABASE_URL: env.DATABASE_URL,
    QUEUE_PREFIX: env.QUEUE_PREFIX,
  });
  try {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const dead = workers.find((w) => w.child.exitCode !== null);
      if (dead) throw new Error(`worker exited (${dead.child.exitCode}) while starting:\n${tail(dead.logFile)}`);
      if ((await queue.getWorkersCount()) >= count) {
        // The metrics server starts after the BullMQ worker connects (Nest's bootstrap hook).
        await Promise.all(workers.map((w) => waitForMetrics(w.metricsUrl, 15_000)));
        return workers;
      }
      await sleep(200);
    }
    throw new Error(`workers did not connect within 90 s:\n${workers.map((w) => tail(w.logFile)).join('\n')}`);
  } catch (err) {
    await Promise.all(workers.map((w) => w.stop()));
    throw err;
  } finally {
    await queue.close();
  }
}

/**
 * Waits until a metrics endpoint answers at all (any status), or gives up after `timeoutMs`: an
 * app whose metrics port was taken runs without metrics, and the bench then says so.
 */
async function waitForMetrics(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(2_000) })).arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
}

/** Node flags and env that preload the sampling profiler (see cpu-profiler-preload.js). */
export function profilerSetup(dir: string): { nodeFlags: string[]; env: Record<string, string> } {
  return { nodeFlags: ['-r', path.join(__dirname, 'cpu-profiler-preload.js')], env: { BENCH_PROFILE_DIR: dir } };
}

export interface NodeMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Node flags and env that preload the memory reporter (see memory-usage-preload.js). */
export function memoryReporterSetup(dir: string): { nodeFlags: string[]; env: Record<string, string> } {
  return { nodeFlags: ['--expose-gc', '-r', path.join(__dirname, 'memory-usage-preload.js')], env: { BENCH_MEMORY_DIR: dir } };
}

/** Asks a process with the memory reporter for process.memoryUsage() (after a full GC when `collect`) and reads it. */
export async function captureMemory(pid: number, dir: string, collect = false): Promise<NodeMemory | undefined> {
  const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
  process.kill(pid, collect ? 'SIGURG' : 'SIGWINCH');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await sleep(50);
    const fresh = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(`-${pid}.json`) && !before.has(f)) : [];
    if (fresh.length) return JSON.parse(readFileSync(path.join(dir, fresh[0]), 'utf8')) as NodeMemory;
  }
  return undefined;
}

/** Asks a preloaded process for its profile so far (SIGWINCH) and resolves with the file it wrote. */
export async function captureProfile(pid: number, dir: string): Promise<string | undefined> {
  const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
  process.kill(pid, 'SIGWINCH');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    await sleep(250);
    const fresh = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(`-${pid}.cpuprofile`) && !before.has(f)) : [];
    if (fresh.length) return path.join(dir, fresh[0]);
  }
  return undefined;
}

/** Resident set size of a process in MB (10^6 bytes, as the target is written), from /proc (Linux). */
export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return Math.round(((kib * 1024) / 1e6) * 10) / 10;
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
