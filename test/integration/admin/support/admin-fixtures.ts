import { randomBytes } from 'node:crypto';
import { createPrismaClient, type PrismaClient, type UserRole } from '@switchboard/db';
import argon2 from 'argon2';

// Rows for the admin tests, written straight to the test database. Every name is unique so
// tests run in parallel and never see each other's rows.

export const PASSWORD = 'correct horse battery staple';

export function apiUrl(path: string): string {
  const base = process.env.TEST_API_URL;
  if (!base) throw new Error('TEST_API_URL is not set: run these tests through the integration jest project (its globalSetup boots the API).');
  return new URL(path, base).toString();
}

export function openDb(): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run these tests through the integration jest project.');
  return createPrismaClient({ connectionString: url, max: 3 });
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

// One hash serves every user of a test file. argon2 takes its parameters from the hash it
// verifies, and at the production ones (64 MiB, 3 passes) each login costs ~150 ms of CPU; the
// suites log in hundreds of times, so the fixtures' users get a hash at small parameters
// (~6 ms). The API's own hashing (new users, password changes) and the unknown-email decoy keep
// the production parameters, and users created through the API are verified at them.
let passwordHash: Promise<string> | undefined;
const sharedHash = () => (passwordHash ??= argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1 }));

export async function createTenant(db: PrismaClient) {
  const slug = unique('t');
  const tenant = await db.tenant.create({ data: { name: `Tenant ${slug}`, slug } });
  const agent = await db.agent.create({ data: { tenantId: tenant.id, name: 'Agent' } });
  const channel = await db.channel.create({ data: { tenantId: tenant.id, agentId: agent.id, name: 'Web' } });
  return { tenant, agent, channel };
}

export async function createUser(db: PrismaClient, role: UserRole, tenantId: string | null, extra: { disabledAt?: Date } = {}) {
  const email = `${unique(role)}@example.test`;
  return db.user.create({ data: { email, role, tenantId, passwordHash: await sharedHash(), name: `${role} user`, ...extra } });
}

export async function createSession(
  db: PrismaClient,
  t: { tenant: { id: string }; agent: { id: string }; channel: { id: string } },
  opts: { externalKey?: string; status?: 'active' | 'handed_off'; createdAt?: Date; texts?: string[] } = {},
) {
  const session = await db.session.create({
    data: {
      tenantId: t.tenant.id,
      channelId: t.channel.id,
      agentId: t.agent.id,
      externalKey: opts.externalKey ?? unique('s'),
      status: opts.status ?? 'active',
      createdAt: opts.createdAt,
      lastMessageAt: opts.texts?.length ? new Date() : null,
    },
  });
  // Inserted one by one so `seq` follows the order of `texts`; inbound and outbound alternate.
  for (const [i, text] of (opts.texts ?? []).entries()) {
    await db.message.create({
      data: {
        tenantId: t.tenant.id,
        sessionId: session.id,
        channelId: t.channel.id,
        direction: i % 2 === 0 ? 'inbound' : 'outbound',
        status: i % 2 === 0 ? 'answered' : 'sent',
        text,
      },
    });
  }
  return session;
}

export async function login(email: string, password = PASSWORD): Promise<string> {
  const res = await fetch(apiUrl('/v1/admin/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login of ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** GET with a bearer token; `query` values are JSON-encoded as react-admin sends them. */
export async function adminGet(token: string, path: string, query: Record<string, unknown> = {}) {
  const url = new URL(apiUrl(path));
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export async function createTurn(
  db: PrismaClient,
  t: { tenant: { id: string }; agent: { id: string } },
  sessionId: string,
  usage: {
    llmCalls: number;
    inputTokens?: number;
    outputTokens?: number;
    outcomeCodes?: string[];
    /** Step outcomes as the worker stores them (`{ kind, status, code, message, at }`). */
    outcomes?: { kind: string; status: string; code?: string; message?: string; at: string }[];
    createdAt?: Date;
  },
) {
  return db.turn.create({
    data: {
      tenantId: t.tenant.id,
      sessionId,
      agentId: t.agent.id,
      provider: 'scripted',
      model: 'scripted-model',
      llmCalls: usage.llmCalls,
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      outcomeCodes: usage.outcomeCodes ?? usage.outcomes?.flatMap((o) => (o.code ? [o.code] : [])) ?? [],
      outcomes: usage.outcomes ?? [],
      totalMs: 120,
      createdAt: usage.createdAt,
    },
  });
}

/** POST/PUT/DELETE with a bearer token and a JSON body; the parsed answer. */
export async function adminSend(token: string, method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const res = await fetch(apiUrl(path), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined, text };
}

/** A tenant and one logged-in user of each given role in it. */
export async function tenantWithUsers<R extends UserRole>(db: PrismaClient, roles: readonly R[]) {
  const t = await createTenant(db);
  const tokens = {} as Record<R, string>;
  const users = {} as Record<R, { id: string; email: string }>;
  for (const role of roles) {
    const user = await createUser(db, role, role === 'platform_admin' ? null : t.tenant.id);
    users[role] = user;
    tokens[role] = await login(user.email);
  }
  return { ...t, tokens, users };
}

/** The `error` of an error answer. */
export function errorOf(body: unknown): { code: string; message: string; details?: unknown } {
  return (body as { error: { code: string; message: string; details?: unknown } }).error;
}
