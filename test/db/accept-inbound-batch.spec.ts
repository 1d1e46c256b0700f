import { randomUUID } from 'node:crypto';
import { TENANT_ROLE, type PrismaService } from '@switchboard/db';
import { insertQueuedMessages, type QueuedInbound } from '../../apps/api/src/messages/insert-inbound-message';
import { MessageIdReusedError } from '../../apps/api/src/messages/messages.errors';
import { createTenantFixture, testPrismaService, type TenantFixture } from '../support/fixtures';

jest.setTimeout(30_000);

// Group commit at ingest: many messages in one call of sb_accept_inbound_batch, each with its
// own answer, as if each had been stored on its own.

let prisma: PrismaService;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  prisma = testPrismaService();
  [a, b] = await Promise.all([createTenantFixture(prisma), createTenantFixture(prisma)]);
});
afterAll(() => prisma.$disconnect());

const scope = (f: TenantFixture) => ({ tenantId: f.tenant.id, channelId: f.channel.id, agentId: f.agent.id });
const message = (f: TenantFixture, session: string, text: string, id?: string): QueuedInbound => ({ auth: scope(f), body: { session, text, id }, at: new Date() });

describe('insertQueuedMessages (sb_accept_inbound_batch)', () => {
  it("stores two tenants' messages in one call, each in its own tenant and session, a session's in arrival order", async () => {
    const tag = randomUUID();
    const outcomes = await insertQueuedMessages(prisma, [
      message(a, `s1-${tag}`, 'a first'),
      message(b, `s1-${tag}`, 'b only'),
      message(a, `s1-${tag}`, 'a second'),
      message(a, `s2-${tag}`, 'a other session'),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
    const values = outcomes.map((o) => (o.ok ? o.value : undefined)!);
    expect(values[0].sessionId).toBe(values[2].sessionId);
    expect(new Set(values.map((v) => v.sessionId)).size).toBe(3);
    const stored = await prisma.message.findMany({ where: { id: { in: values.map((v) => v.messageId) } }, orderBy: { seq: 'asc' } });
    expect(stored.map((m) => [m.text, m.tenantId, m.status]).sort()).toEqual([
      ['a first', a.tenant.id, 'queued'],
      ['a other session', a.tenant.id, 'queued'],
      ['a second', a.tenant.id, 'queued'],
      ['b only', b.tenant.id, 'queued'],
    ]);
    const inSession = stored.filter((m) => m.sessionId === values[0].sessionId).map((m) => m.text);
    expect(inSession).toEqual(['a first', 'a second']);
  });

  it('answers a repeated message id with the first message, also within one batch, and a reused one with its own error', async () => {
    const tag = randomUUID();
    const [first] = await insertQueuedMessages(prisma, [message(a, `s-${tag}`, 'hello', `ext-${tag}`)]);
    const outcomes = await insertQueuedMessages(prisma, [
      message(a, `s-${tag}`, 'hello', `ext-${tag}`),
      message(a, `s-${tag}`, 'new', `ext2-${tag}`),
      message(a, `s-${tag}`, 'new', `ext2-${tag}`),
      message(a, `s-${tag}`, 'another text', `ext-${tag}`),
    ]);
    expect(first.ok && first.value.duplicate).toBe(false);
    const [again, fresh, freshAgain, reused] = outcomes;
    expect(again.ok && again.value).toMatchObject({ messageId: first.ok && first.value.messageId, duplicate: true });
    expect(fresh.ok && fresh.value.duplicate).toBe(false);
    expect(freshAgain.ok && freshAgain.value).toMatchObject({ messageId: fresh.ok && fresh.value.messageId, duplicate: true });
    expect(reused.ok ? 'stored' : reused.error).toBeInstanceOf(MessageIdReusedError);
    expect(await prisma.message.count({ where: { channelId: a.channel.id, externalId: { in: [`ext-${tag}`, `ext2-${tag}`] } } })).toBe(2);
  });

  it('fails only the row that cannot be stored: the others of its batch are stored and answered', async () => {
    const tag = randomUUID();
    const foreign = { ...message(a, `s-${tag}`, 'names no channel'), auth: { ...scope(a), channelId: randomUUID() } };
    const outcomes = await insertQueuedMessages(prisma, [message(a, `s-${tag}`, 'good 1'), foreign, message(b, `s-${tag}`, 'good 2')]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(await prisma.message.count({ where: { text: { in: ['good 1', 'good 2'] }, session: { externalKey: `s-${tag}` } } })).toBe(2);
    expect(await prisma.message.count({ where: { text: 'names no channel' } })).toBe(0);
  });

  it('leaves the pooled connection unscoped after the call', async () => {
    await insertQueuedMessages(prisma, [message(a, `s-${randomUUID()}`, 'x'), message(b, `s-${randomUUID()}`, 'y')]);
    const [row] = await prisma.$queryRaw<{ role: string; tenant: string | null }[]>`
      SELECT current_user AS role, NULLIF(current_setting('app.tenant_id', true), '') AS tenant`;
    expect(row.role).not.toBe(TENANT_ROLE);
    expect(row.tenant).toBeNull();
  });
});
