import { startApi, stopApi, type ApiProcess } from '../../../support/api-process';
import { unique } from './rows';
import { deleteQueueKeys } from '../../../support/queue-keys';

// Worker end-to-end tests run real worker processes, which take every job of their queue. The
// API booted by globalSetup shares its queue with the API tests, which expect their messages to
// stay queued; so these tests boot their own API on their own QUEUE_PREFIX (same database).

export interface PrivateApi {
  baseUrl: string;
  /** GET /metrics on the API's own metrics port. */
  metricsUrl: string;
  queuePrefix: string;
  logFile: string;
  stop(): Promise<void>;
}

/** `env` adds to the test run's environment (e.g. the Postgres-mode suite's backend choice). */
export async function startPrivateApi(env: Record<string, string> = {}): Promise<PrivateApi> {
  const queuePrefix = unique('sbt-wk');
  const api: ApiProcess = await startApi({ ...process.env, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn', ...env }, queuePrefix);
  const stop = async () => {
    await stopApi(api.child);
    await deleteQueueKeys(queuePrefix);
  };
  return { baseUrl: api.baseUrl, metricsUrl: api.metricsUrl, queuePrefix, logFile: api.logFile, stop };
}

export interface Reply<T> {
  status: number;
  body: T;
}

/** One HTTP call to the private API with a channel key; JSON in, JSON out. */
export async function call<T = Record<string, unknown>>(
  api: PrivateApi,
  method: 'GET' | 'POST',
  path: string,
  key: string,
  json?: unknown,
): Promise<Reply<T>> {
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
