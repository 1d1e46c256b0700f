import { encryptSecret, recordConsoleUsage, recordTurnUsage, type PrismaClient } from '@switchboard/db';
import { randomBytes } from 'node:crypto';
import { uniqueSuffix, type TenantFixture } from '../../support/fixtures';

/** Ids of one row per tenant-owned table, created for a tenant fixture. */
export interface TenantWorld {
  sessionId: string;
  messageId: string;
  turnId: string;
  userId: string;
}

const TEST_MASTER_KEY = randomBytes(32);

/** Puts at least one row in every tenant-owned table for the fixture's tenant (as the owner role). */
export async function populateTenant(prisma: PrismaClient, fx: TenantFixture): Promise<TenantWorld> {
  const s = uniqueSuffix();
  const tenantId = fx.tenant.id;
  const user = await prisma.user.create({
    data: { tenantId, email: `u-${s}@example.test`, passwordHash: 'x', role: 'owner' },
  });
  const session = await prisma.session.create({
    data: { tenantId, channelId: fx.channel.id, agentId: fx.agent.id, externalKey: `world-${s}` },
  });
  const turn = await prisma.turn.create({
    data: { tenantId, sessionId: session.id, agentId: fx.agent.id, provider: 'scripted', model: 'scripted' },
  });
  const message = await prisma.message.create({
    data: {
      tenantId, sessionId: session.id, channelId: fx.channel.id, direction: 'outbound', status: 'sent',
      text: `secret of ${tenantId}`, key: `k-${s}`, turnId: turn.id,
    },
  });
  await recordTurnUsage(prisma, {
    tenantId, agentId: fx.agent.id, at: new Date(), llmCalls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
    queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: ['answered'], deferred: false, failed: false,
  });
  await prisma.wake.create({ data: { tenantId, sessionId: session.id, key: `w-${s}`, dueAt: new Date() } });
  await prisma.delivery.create({ data: { tenantId, channelId: fx.channel.id, messageId: message.id, url: 'https://example.test/hook' } });
  await prisma.auditLog.create({
    data: { tenantId, actorUserId: user.id, actorType: 'user', action: 'agent.update', entityType: 'Agent', entityId: fx.agent.id },
  });
  await prisma.toolDefinition.create({ data: { tenantId, toolId: `http_${s}`, url: 'https://example.test/tool' } });
  await prisma.providerCredential.create({
    data: {
      tenantId, name: `openai-${s}`, kind: 'openai',
      secretEncrypted: encryptSecret('sk-test-secret', TEST_MASTER_KEY, `provider-credential:${tenantId}`), secretLast4: 'cret',
    },
  });
  // Safe iteration (issue 18): a playground conversation and a conversation test.
  await prisma.playgroundSession.create({ data: { tenantId, agentId: fx.agent.id, target: 'draft' } });
  await prisma.conversationTest.create({ data: { tenantId, agentId: fx.agent.id, name: `test-${s}`, source: 'playground', turns: [{ message: 'oi', expect: [] }] } });
  await recordConsoleUsage(prisma, { tenantId, agentId: fx.agent.id, source: 'playground', at: new Date(), turns: 1, llmCalls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 });
  // The inbox (issue 22): an internal note.
  await prisma.sessionNote.create({ data: { tenantId, sessionId: session.id, authorId: user.id, text: `note-${s}` } });
  // Cost (issue 25): a negotiated price and a cost roll-up row.
  await prisma.tenantModelPrice.create({
    data: { tenantId, provider: 'openai', model: 'gpt-4.1-mini', inputPerMillionMicros: 1n, cachedInputPerMillionMicros: 1n, outputPerMillionMicros: 1n, effectiveFrom: new Date() },
  });
  await prisma.usageCostDaily.create({
    data: { tenantId, agentId: fx.agent.id, day: new Date(), channelId: fx.channel.id, provider: 'openai', model: 'gpt-4.1-mini', part: 'idle', llmCalls: 1n, costMicros: 5n },
  });
  return { sessionId: session.id, messageId: message.id, turnId: turn.id, userId: user.id };
}
