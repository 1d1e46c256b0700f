import { generateApiKey, recordTurnUsage, type PrismaClient } from '@switchboard/db';
import { createSession, createTenant, createTurn, createUser, unique } from './admin-fixtures';

/** One row of every admin resource in a fresh tenant, so matrix tests have an id for each route. */
export interface AdminWorld {
  tenant: string;
  agent: string;
  channel: string;
  apiKey: string;
  credential: string;
  httpTool: string;
  user: string;
  session: string;
  message: string;
  turn: string;
  audit: string;
  /** A dead webhook delivery of an outbound reply. */
  delivery: string;
  /** The id a failed turn job of the world's message would have (no such job exists: redrive answers 404). */
  deadLetter: string;
  /** A negotiated price of the tenant's. */
  tenantPrice: string;
  /** A list price the world added: platform-wide, every tenant reads it. */
  modelPrice: string;
}

export async function createAdminWorld(db: PrismaClient): Promise<AdminWorld> {
  const t = await createTenant(db);
  const tenantId = t.tenant.id;
  const config = { provider: { kind: 'scripted', model: 'scripted' }, fields: {}, flows: [], tools: [] };
  await db.agent.update({ where: { id: t.agent.id }, data: { config, publishedVersion: 1 } });
  await db.agentVersion.create({ data: { tenantId, agentId: t.agent.id, version: 1, config } });
  const key = generateApiKey();
  const apiKey = await db.apiKey.create({ data: { tenantId, channelId: t.channel.id, prefix: key.prefix, keyHash: key.hash } });
  const credential = await db.providerCredential.create({
    data: { tenantId, name: unique('cred'), kind: 'openai', secretEncrypted: 'v1.a.b.c', secretLast4: 'abcd' },
  });
  const httpTool = await db.toolDefinition.create({ data: { tenantId, toolId: unique('tool'), url: 'https://example.test/tool' } });
  const user = await createUser(db, 'viewer', tenantId);
  const session = await createSession(db, t, { texts: ['hello'] });
  const message = await db.message.findFirstOrThrow({ where: { sessionId: session.id } });
  const turn = await createTurn(db, t, session.id, { llmCalls: 1 });
  await recordTurnUsage(db, {
    tenantId, agentId: t.agent.id, at: new Date(), llmCalls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
    queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: ['answered'], deferred: false, failed: false,
  });
  const reply = await db.message.create({
    data: { tenantId, sessionId: session.id, channelId: t.channel.id, direction: 'outbound', status: 'sent', text: 'reply' },
  });
  const delivery = await db.delivery.create({
    data: { tenantId, channelId: t.channel.id, messageId: reply.id, url: 'https://example.test/hook', status: 'dead', attempts: 3, lastError: 'HTTP 500' },
  });
  const price = { provider: 'openai', inputPerMillionMicros: 1n, cachedInputPerMillionMicros: 1n, outputPerMillionMicros: 1n, effectiveFrom: new Date() };
  const tenantPrice = await db.tenantModelPrice.create({ data: { ...price, tenantId, model: 'gpt-4.1-mini' } });
  const modelPrice = await db.modelPrice.create({ data: { ...price, model: unique('world-model') } });
  const audit = await db.auditLog.create({ data: { tenantId, actorType: 'system', action: 'agent.update', entityType: 'agent', entityId: t.agent.id } });
  return {
    tenant: tenantId,
    agent: t.agent.id,
    channel: t.channel.id,
    apiKey: apiKey.id,
    credential: credential.id,
    httpTool: httpTool.id,
    user: user.id,
    session: session.id,
    message: message.id,
    turn: turn.id,
    audit: audit.id,
    delivery: delivery.id,
    deadLetter: `msg-${message.id}`,
    tenantPrice: tenantPrice.id,
    modelPrice: modelPrice.id,
  };
}

/** Every row of the tenant that an admin route could change, for before/after comparison. */
export async function tenantSnapshot(db: PrismaClient, tenantId: string): Promise<string> {
  const where = { tenantId };
  const rows = await Promise.all([
    db.tenant.findUnique({ where: { id: tenantId } }),
    db.agent.findMany({ where, orderBy: { id: 'asc' } }),
    db.agentVersion.findMany({ where, orderBy: { id: 'asc' } }),
    db.channel.findMany({ where, orderBy: { id: 'asc' } }),
    db.apiKey.findMany({ where, orderBy: { id: 'asc' }, omit: { lastUsedAt: true } }),
    db.providerCredential.findMany({ where, orderBy: { id: 'asc' } }),
    db.toolDefinition.findMany({ where, orderBy: { id: 'asc' } }),
    db.user.findMany({ where, orderBy: { id: 'asc' } }),
    db.session.findMany({ where, orderBy: { id: 'asc' } }),
    db.message.findMany({ where, orderBy: { id: 'asc' } }),
    db.turn.findMany({ where, orderBy: { id: 'asc' } }),
    db.auditLog.findMany({ where, orderBy: { id: 'asc' } }),
    db.usageDaily.findMany({ where, orderBy: { id: 'asc' } }),
    db.delivery.findMany({ where, orderBy: { id: 'asc' } }),
    db.tenantModelPrice.findMany({ where, orderBy: { id: 'asc' } }),
  ]);
  return JSON.stringify(rows, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
