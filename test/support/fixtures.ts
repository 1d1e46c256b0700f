import { randomBytes } from 'node:crypto';
import type { AgentConfig } from '@switchboard/agent-config';
import {
  createPrismaClient,
  generateApiKey,
  PrismaService,
  type Agent,
  type Channel,
  type Prisma,
  type PrismaClient,
  type Tenant,
} from '@switchboard/db';

// Each test builds its own tenant so tests never share rows and can run in parallel.

/** The smallest valid agent: the offline scripted provider, no fields, flows or tools. */
export const MINIMAL_AGENT_CONFIG: AgentConfig = {
  provider: { kind: 'scripted', model: 'scripted' },
  fields: {},
  flows: [],
  tools: [],
};

export interface TenantFixture {
  tenant: Tenant;
  agent: Agent;
  channel: Channel;
  /** The channel's API key in plaintext (only its hash is stored). */
  apiKey: string;
  apiKeyId: string;
}

/** A Prisma client on the run's test database; disconnect it in afterAll. */
export function testPrisma(): PrismaClient {
  return createPrismaClient({ connectionString: testDatabaseUrl(), max: 3 });
}

/** The apps' own client on the run's test database, for code that runs prepared statements (queryPrepared). */
export function testPrismaService(poolMax = 3): PrismaService {
  return new PrismaService(testDatabaseUrl(), poolMax);
}

function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run integration tests through jest (globalSetup sets it).');
  return url;
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/**
 * A tenant with one agent (draft config and published version 1 of the same config), one
 * channel of that agent, and an API key for the channel.
 */
export async function createTenantFixture(
  prisma: PrismaClient,
  opts: { agentConfig?: AgentConfig } = {},
): Promise<TenantFixture> {
  const suffix = uniqueSuffix();
  const config = (opts.agentConfig ?? MINIMAL_AGENT_CONFIG) as unknown as Prisma.InputJsonValue;
  const key = generateApiKey();
  return prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.create({ data: { name: `Test tenant ${suffix}`, slug: `t-${suffix}` } });
    const agent = await tx.agent.create({
      data: { tenantId: tenant.id, name: `Agent ${suffix}`, config, publishedVersion: 1 },
    });
    await tx.agentVersion.create({ data: { tenantId: tenant.id, agentId: agent.id, version: 1, config } });
    const channel = await tx.channel.create({ data: { tenantId: tenant.id, agentId: agent.id, name: `Channel ${suffix}` } });
    const apiKey = await tx.apiKey.create({
      data: { tenantId: tenant.id, channelId: channel.id, name: 'test', prefix: key.prefix, keyHash: key.hash },
    });
    return { tenant, agent, channel, apiKey: key.key, apiKeyId: apiKey.id };
  });
}
