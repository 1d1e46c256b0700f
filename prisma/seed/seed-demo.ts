import type { AgentConfig } from '@switchboard/agent-config';
import { API_KEY_VISIBLE_CHARS, hashApiKey, type Prisma, type PrismaClient, type UserRole } from '@switchboard/db';
import {
  DEMO_AGENT_NAME,
  DEMO_API_KEY_NAME,
  DEMO_CHANNEL_NAME,
  DEMO_TENANT,
  type DemoSettings,
} from './demo-settings';

// Creates what the demo needs and nothing else, only where it is missing: running it twice
// with the same settings changes nothing. Rows a person may have edited since (the agent's
// config, names) are never overwritten.

type Tx = Prisma.TransactionClient;

export interface SeedDeps {
  hashPassword(password: string): Promise<string>;
  verifyPassword(hash: string, password: string): Promise<boolean>;
  /** The Concierge's configuration, already pointed at the chosen provider. */
  agentConfig: AgentConfig;
}

export interface SeedReport {
  tenantId: string;
  agentId: string;
  channelId: string;
  /** What this run changed, one line each; empty when everything was already there. */
  changes: string[];
  /** Things the seed left alone on purpose but the person running it should know. */
  notes: string[];
}

export class SeedConflictError extends Error {
  readonly code = 'seed-conflict';
  constructor(message: string) {
    super(message);
    this.name = 'SeedConflictError';
  }
}

/** Key of the advisory lock that serialises concurrent seeds (two `migrate` containers, say). */
const SEED_LOCK_KEY = 5_311_842;

export async function seedDemo(prisma: PrismaClient, settings: DemoSettings, deps: SeedDeps): Promise<SeedReport> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
      const changes: string[] = [];
      const notes: string[] = [];

      await ensureLogin(tx, deps, changes, {
        email: settings.adminEmail,
        password: settings.adminPassword,
        role: 'platform_admin',
        tenantId: null,
        name: 'Platform admin',
      });
      const tenant = await ensureTenant(tx, changes);
      await ensureLogin(tx, deps, changes, {
        email: settings.ownerEmail,
        password: settings.adminPassword,
        role: 'owner',
        tenantId: tenant.id,
        name: 'Demo Hotel owner',
      });
      const agent = await ensureAgent(tx, tenant.id, deps.agentConfig, changes, notes);
      const channel = await ensureChannel(tx, tenant.id, agent.id, changes);
      await ensureApiKey(tx, tenant.id, channel.id, settings.apiKey, changes);
      await ensureExamplePrice(tx, tenant.id, changes);

      return { tenantId: tenant.id, agentId: agent.id, channelId: channel.id, changes, notes };
    },
    // argon2 hashing runs inside; the default 5 s is tight on a loaded 2-core machine.
    { timeout: 30_000 },
  );
}

interface LoginSpec {
  email: string;
  password: string;
  role: UserRole;
  tenantId: string | null;
  name: string;
}

async function ensureLogin(tx: Tx, deps: SeedDeps, changes: string[], spec: LoginSpec): Promise<void> {
  const user = await tx.user.findUnique({ where: { email: spec.email } });
  if (!user) {
    const passwordHash = await deps.hashPassword(spec.password);
    await tx.user.create({
      data: { email: spec.email, name: spec.name, role: spec.role, tenantId: spec.tenantId, passwordHash },
    });
    changes.push(`created ${spec.role} login ${spec.email}`);
    return;
  }
  if (user.role !== spec.role || user.tenantId !== spec.tenantId) {
    throw new SeedConflictError(
      `The email ${spec.email} already belongs to a ${user.role} user of another scope; ` +
        'choose another address in DEMO_ADMIN_EMAIL / DEMO_OWNER_EMAIL.',
    );
  }
  // Argon2 salts every hash, so re-hashing would change the row on every run: only a password
  // that no longer matches the environment is replaced.
  if (!(await deps.verifyPassword(user.passwordHash, spec.password))) {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash: await deps.hashPassword(spec.password) } });
    changes.push(`updated the password of ${spec.email} to DEMO_ADMIN_PASSWORD`);
  }
  if (user.disabledAt) {
    await tx.user.update({ where: { id: user.id }, data: { disabledAt: null } });
    changes.push(`re-enabled ${spec.email}`);
  }
}

async function ensureTenant(tx: Tx, changes: string[]) {
  const existing = await tx.tenant.findUnique({ where: { slug: DEMO_TENANT.slug } });
  if (existing) return existing;
  changes.push(`created tenant "${DEMO_TENANT.name}" (${DEMO_TENANT.slug})`);
  return tx.tenant.create({ data: { name: DEMO_TENANT.name, slug: DEMO_TENANT.slug } });
}

function asJson(config: AgentConfig): Prisma.InputJsonValue {
  // AgentConfig is plain JSON by construction (the console and API store it as such).
  return config as unknown as Prisma.InputJsonValue;
}

async function ensureAgent(tx: Tx, tenantId: string, config: AgentConfig, changes: string[], notes: string[]) {
  let agent = await tx.agent.findFirst({ where: { tenantId, name: DEMO_AGENT_NAME }, orderBy: { createdAt: 'asc' } });
  if (!agent) {
    agent = await tx.agent.create({ data: { tenantId, name: DEMO_AGENT_NAME, config: asJson(config) } });
    changes.push(`created agent ${DEMO_AGENT_NAME} (provider ${config.provider.kind})`);
  } else {
    const stored = agent.config as unknown as Partial<AgentConfig> | null;
    if (stored?.provider?.kind !== config.provider.kind) {
      notes.push(
        `agent ${DEMO_AGENT_NAME} already exists with provider "${stored?.provider?.kind ?? 'none'}"; ` +
          `the environment asks for "${config.provider.kind}". The seed never overwrites an agent: ` +
          'publish a new version from the console, or seed a fresh database.',
      );
    }
  }
  if (agent.publishedVersion === null) {
    const first = await tx.agentVersion.findUnique({ where: { agentId_version: { agentId: agent.id, version: 1 } } });
    if (!first) {
      await tx.agentVersion.create({ data: { tenantId, agentId: agent.id, version: 1, config: asJson(config) } });
      changes.push(`published ${DEMO_AGENT_NAME} as version 1`);
    }
    agent = await tx.agent.update({ where: { id: agent.id }, data: { publishedVersion: 1 } });
  }
  return agent;
}

/**
 * The scripted provider calls no model and is listed at 0 (docs/cost.md); the demo tenant gets
 * an example negotiated price for it, labelled as such, so the dashboard's cost shows the
 * machinery with numbers. gpt-4.1-mini's list price: an order of magnitude a real bot pays.
 */
export const DEMO_EXAMPLE_PRICE = {
  provider: 'scripted',
  model: '*',
  inputPerMillionMicros: 400_000n,
  cachedInputPerMillionMicros: 100_000n,
  outputPerMillionMicros: 1_600_000n,
  effectiveFrom: new Date('2020-01-01T00:00:00Z'),
  source: 'EXAMPLE price for the demo (scripted provider), not a real charge',
} as const;

async function ensureExamplePrice(tx: Tx, tenantId: string, changes: string[]): Promise<void> {
  const existing = await tx.tenantModelPrice.findFirst({ where: { tenantId, provider: DEMO_EXAMPLE_PRICE.provider, model: DEMO_EXAMPLE_PRICE.model } });
  if (existing) return;
  await tx.tenantModelPrice.create({ data: { tenantId, ...DEMO_EXAMPLE_PRICE } });
  changes.push('set an example price for the scripted provider (labelled EXAMPLE)');
}

async function ensureChannel(tx: Tx, tenantId: string, agentId: string, changes: string[]) {
  const existing = await tx.channel.findFirst({ where: { tenantId, name: DEMO_CHANNEL_NAME }, orderBy: { createdAt: 'asc' } });
  if (existing) return existing;
  changes.push(`created channel "${DEMO_CHANNEL_NAME}"`);
  return tx.channel.create({ data: { tenantId, agentId, name: DEMO_CHANNEL_NAME } });
}

async function ensureApiKey(
  tx: Tx,
  tenantId: string,
  channelId: string,
  plaintext: string,
  changes: string[],
): Promise<void> {
  const keyHash = hashApiKey(plaintext);
  const existing = await tx.apiKey.findUnique({ where: { keyHash } });
  if (!existing) {
    await tx.apiKey.create({
      data: { tenantId, channelId, name: DEMO_API_KEY_NAME, prefix: plaintext.slice(0, API_KEY_VISIBLE_CHARS), keyHash },
    });
    changes.push(`created the channel's API key (DEMO_API_KEY)`);
    return;
  }
  if (existing.channelId !== channelId) {
    throw new SeedConflictError('DEMO_API_KEY is already the key of another channel; choose another value.');
  }
  if (existing.revokedAt) {
    // The demo promises that the printed curl works, so its key is brought back.
    await tx.apiKey.update({ where: { id: existing.id }, data: { revokedAt: null } });
    changes.push('un-revoked the demo API key');
  }
}
