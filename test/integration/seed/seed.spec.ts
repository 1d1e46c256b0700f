import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { hashApiKey } from '@switchboard/db';
import { verifyPassword } from '../../../apps/api/src/admin/auth/password';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../support/test-database';

// Runs the real seed entry point, as `npm run demo` and the compose `migrate` service do, on a
// database of its own (the seed's tenant slug and emails are fixed, so it cannot share one).
// Each run compiles the seed's imports with swc on start, which is slow on a loaded CI machine;
// jest ignores the project-level testTimeout, so every hook and test sets its own.

const root = path.join(__dirname, '../../..');
const TABLES = ['User', 'Tenant', 'Agent', 'AgentVersion', 'Channel', 'ApiKey', 'TenantModelPrice'] as const;

let name: string;
let url: string;
let db: Client;

async function runSeed(extraEnv: Record<string, string> = {}): Promise<string> {
  const env = { ...process.env, DATABASE_URL: url, OPENAI_API_KEY: '', GEMINI_API_KEY: '', ...extraEnv };
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { cwd: root, env });
  return stdout;
}

async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = (await db.query(`SELECT * FROM "${table}" ORDER BY id`)).rows;
  return out;
}

beforeAll(async () => {
  name = uniqueName('sb_seed');
  url = await createMigratedDatabase(name);
  db = new Client({ connectionString: url });
  await db.connect();
}, 60_000);

afterAll(async () => {
  await db?.end();
  if (name) await dropDatabase(name);
}, 60_000);

it('seeds the admin, the Demo Hotel tenant and owner, the published Concierge, its channel and key; a second run changes nothing', async () => {
  const first = await runSeed();
  expect(first).toContain('created agent Concierge (provider scripted)');
  const seeded = await snapshot();

  const users = seeded.User as { email: string; role: string; tenantId: string | null; passwordHash: string }[];
  const [tenant] = seeded.Tenant as { id: string; name: string; slug: string }[];
  expect(seeded.Tenant).toHaveLength(1);
  expect(tenant).toMatchObject({ name: 'Demo Hotel', slug: 'demo' });
  expect(users.map((u) => [u.email, u.role, u.tenantId]).sort()).toEqual([
    ['admin@switchboard.local', 'platform_admin', null],
    ['owner@demo-hotel.local', 'owner', tenant.id],
  ]);
  for (const user of users) expect(await verifyPassword(user.passwordHash, 'switchboard')).toBe(true);

  const [agent] = seeded.Agent as { id: string; name: string; publishedVersion: number; config: { provider: { kind: string } } }[];
  const versions = seeded.AgentVersion as { agentId: string; version: number; config: unknown }[];
  expect(seeded.Agent).toHaveLength(1);
  expect(agent).toMatchObject({ name: 'Concierge', publishedVersion: 1 });
  expect(agent.config.provider.kind).toBe('scripted');
  expect(versions).toEqual([expect.objectContaining({ agentId: agent.id, version: 1, config: agent.config })]);

  const [channel] = seeded.Channel as { id: string; name: string; agentId: string }[];
  expect(seeded.Channel).toHaveLength(1);
  expect(channel).toMatchObject({ name: 'Demo channel', agentId: agent.id });
  expect(seeded.ApiKey).toEqual([
    expect.objectContaining({ channelId: channel.id, keyHash: hashApiKey('sb_demo_concierge_key_change_me'), revokedAt: null }),
  ]);

  // An example price, labelled as one, so the demo's dashboard shows cost in money.
  expect(seeded.TenantModelPrice).toEqual([
    expect.objectContaining({ tenantId: tenant.id, provider: 'scripted', model: '*', source: expect.stringContaining('EXAMPLE') }),
  ]);

  const second = await runSeed();
  expect(second).toContain('nothing changed');
  expect(await snapshot()).toEqual(seeded);
}, 180_000);

it('restores the documented password and the demo key when they were changed, and leaves an existing agent alone', async () => {
  await runSeed();
  await db.query(`UPDATE "User" SET "passwordHash" = 'not-a-hash' WHERE email = 'admin@switchboard.local'`);
  await db.query(`UPDATE "ApiKey" SET "revokedAt" = now()`);

  const out = await runSeed({ OPENAI_API_KEY: 'sk-test-not-used' });
  expect(out).toContain('updated the password of admin@switchboard.local');
  expect(out).toContain('un-revoked the demo API key');
  expect(out).toContain('the environment asks for "openai"');
  const { rows } = await db.query(`SELECT config FROM "Agent"`);
  expect(rows).toEqual([{ config: expect.objectContaining({ provider: expect.objectContaining({ kind: 'scripted' }) }) }]);
}, 180_000);

it('seeds the Concierge on OpenAI gpt-4o-mini when OPENAI_API_KEY is set', async () => {
  const other = uniqueName('sb_seed_openai');
  const otherUrl = await createMigratedDatabase(other);
  try {
    const env = { ...process.env, DATABASE_URL: otherUrl, OPENAI_API_KEY: 'sk-test-not-used', GEMINI_API_KEY: '' };
    await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { cwd: root, env });
    const c = new Client({ connectionString: otherUrl });
    await c.connect();
    const { rows } = await c.query(`SELECT a.config AS draft, v.config AS published FROM "Agent" a JOIN "AgentVersion" v ON v."agentId" = a.id`);
    await c.end();
    expect(rows).toHaveLength(1);
    expect(rows[0].draft.provider).toEqual({ kind: 'openai', model: 'gpt-4o-mini' });
    expect(rows[0].published.provider).toEqual({ kind: 'openai', model: 'gpt-4o-mini' });
  } finally {
    await dropDatabase(other);
  }
}, 180_000);
