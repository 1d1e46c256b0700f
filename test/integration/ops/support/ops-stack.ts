import { createPrismaClient, type PrismaClient, type UserRole } from '@switchboard/db';
import { startApi, stopApi, type ApiProcess } from '../../../support/api-process';
import { uniqueSuffix } from '../../../support/fixtures';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../../support/test-database';
import { startWorker, type WorkerProcess } from '../../../support/worker-process';
import { createUser, PASSWORD } from '../../admin/support/admin-fixtures';
import { deleteQueueKeys } from '../../../support/queue-keys';

// The end-to-end ops suites run a real worker whose webhook dispatcher polls every due delivery
// of its database and whose turn worker takes every job of its queue. So they get a database
// and a queue prefix of their own: nothing of another suite is sent, retried or answered here.

export interface OpsStack {
  prisma: PrismaClient;
  apiUrl: string;
  queuePrefix: string;
  databaseUrl: string;
  worker: WorkerProcess;
  stop(): Promise<void>;
}

/** `backendEnv` goes to both processes (e.g. `{ REDIS_URL: '' }` for Postgres mode); `workerEnv` to the worker only. */
export async function startOpsStack(workerEnv: Record<string, string>, backendEnv: Record<string, string> = {}): Promise<OpsStack> {
  const dbName = uniqueName('sbt_ops');
  const queuePrefix = `sbt-ops-${uniqueSuffix()}`;
  const databaseUrl = await createMigratedDatabase(dbName);
  const prisma = createPrismaClient({ connectionString: databaseUrl, max: 3 });
  let api: ApiProcess | undefined;
  let worker: WorkerProcess | undefined;
  const stop = async () => {
    await worker?.stop().catch(() => undefined);
    if (api) await stopApi(api.child);
    await deleteQueueKeys(queuePrefix);
    await prisma.$disconnect();
    await dropDatabase(dbName);
  };
  try {
    api = await startApi({ ...process.env, DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn', ...backendEnv }, queuePrefix);
    worker = await startWorker({ DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, ...backendEnv, ...workerEnv });
  } catch (err) {
    await stop();
    throw err;
  }
  return { prisma, apiUrl: api.baseUrl, queuePrefix, databaseUrl, worker, stop };
}

/** A logged-in console user of `role` in the tenant (none for platform admins), against this stack's API. */
export async function tokenFor(stack: OpsStack, role: UserRole, tenantId: string | null): Promise<string> {
  const user = await createUser(stack.prisma, role, role === 'platform_admin' ? null : tenantId);
  const res = await fetch(`${stack.apiUrl}/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One call to the stack's API with a bearer token (console token or channel key); JSON in and out. */
export async function request<T = Record<string, unknown>>(
  stack: OpsStack,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  json?: unknown,
): Promise<Answer<T>> {
  const res = await fetch(stack.apiUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/** `?filter=...&sort=...` as react-admin sends them. */
export function listPath(path: string, query: Record<string, unknown>): string {
  const q = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)])));
  return `${path}?${q.toString()}`;
}
