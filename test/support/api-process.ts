import { spawn, type ChildProcess } from 'node:child_process';
import { fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { assertPostgresModeSlot, isPostgresMode } from './postgres-mode-slot';

// The integration suite talks HTTP to ONE real API process per jest run, started from source
// with swc so no build is needed. Its log goes to a file the tests (and people) can read.

const ROOT = path.join(__dirname, '..', '..');

/** A port that was free a moment ago: the OS picks it for a throwaway server we close at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ApiProcess {
  child: ChildProcess;
  baseUrl: string;
  /** GET /metrics, on its own loopback port (API_METRICS_PORT). */
  metricsUrl: string;
  logFile: string;
}

/**
 * Starts the API from source on a free port and waits until `probe` answers 200 (`live` for an
 * API whose dependencies are down on purpose). A port freePort found free can be taken by another
 * process before the API binds it (parallel suites start servers too): then it starts again on
 * new ports, up to three times.
 */
export function startApi(env: NodeJS.ProcessEnv, name: string, probe: 'ready' | 'live' = 'ready'): Promise<ApiProcess> {
  if (isPostgresMode(env)) assertPostgresModeSlot('an API');
  return retryWhilePortTaken(() => startApiOnce(env, name, probe));
}

/** A server that exited at start because its port was taken (EADDRINUSE in its log). */
export class PortTakenError extends Error {}

/** Runs `start` again, up to three times in all, while it fails with PortTakenError. */
export async function retryWhilePortTaken<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= 3) throw err;
    }
  }
}

async function startApiOnce(env: NodeJS.ProcessEnv, name: string, probe: 'ready' | 'live'): Promise<ApiProcess> {
  const port = await freePort();
  const metricsPort = await freePort();
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const logFile = path.join(ROOT, '.tmp', `${name}-api.log`);
  const out = openSync(logFile, 'a');
  const logStart = fstatSync(out).size;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    // The tests play the reverse proxy, from loopback: their X-Forwarded-For is each test's own
    // client address (test/security/client-address.spec.ts covers TRUST_PROXY off).
    // Many APIs and workers run at once against one Postgres (100 connections): small pools.
    env: { DATABASE_POOL_MAX: '5', QUEUE_PG_POOL_MAX: '2', API_METRICS_PORT: String(metricsPort), API_METRICS_HOST: '127.0.0.1', TRUST_PROXY: 'loopback', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(child, `${baseUrl}/health/${probe}`, logFile, logStart);
  // Its answers are checked against its OpenAPI document too (answer-validation.ts).
  ((globalThis as { __SB_API_ORIGINS__?: Set<string> }).__SB_API_ORIGINS__ ??= new Set()).add(new URL(baseUrl).origin);
  return { child, baseUrl, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, logFile };
}

async function waitUntil(child: ChildProcess, probeUrl: string, logFile: string, logStart: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `The API exited with code ${child.exitCode} while starting:\n${tail(logFile)}`;
      throw readFileSync(logFile).subarray(logStart).includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    try {
      const res = await fetch(probeUrl);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`The API did not answer ${probeUrl} within 60 s:\n${tail(logFile)}`);
}

/** SIGTERM, then SIGKILL if it does not exit within 10 s (shutdown hooks close queues and pools). */
export async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
}
