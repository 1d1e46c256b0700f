import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { request, type ApiResponse } from './http';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

let prisma: PrismaClient;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  [a, b] = await Promise.all([createTenantFixture(prisma), createTenantFixture(prisma)]);
});

afterAll(() => prisma.$disconnect());

/**
 * A customer message stored as ingest stores it (queued), written here rather than posted: a
 * posted one gets a job on the shared queue, which a worker another suite runs beside this one
 * would answer, adding replies this listing does not expect. Ingest has its own tests.
 */
async function post(fx: TenantFixture, session: string, text: string) {
  const row = await prisma.session.upsert({
    where: { channelId_externalKey: { channelId: fx.channel.id, externalKey: session } },
    create: { tenantId: fx.tenant.id, channelId: fx.channel.id, agentId: fx.agent.id, externalKey: session },
    update: {},
  });
  const m = await prisma.message.create({
    data: { tenantId: fx.tenant.id, sessionId: row.id, channelId: fx.channel.id, direction: 'inbound', status: 'queued', text },
  });
  return { messageId: m.id, sessionId: row.id };
}

describe('GET /v1/sessions/:sessionId/messages', () => {
  it('lists the conversation in arrival order, inbound and outbound interleaved', async () => {
    const session = `s-${uniqueSuffix()}`;
    const first = await post(a, session, 'first');
    // A reply committed between the two inbound messages, as the worker would write it.
    const reply = await prisma.message.create({
      data: {
        tenantId: a.tenant.id, sessionId: first.sessionId, channelId: a.channel.id,
        direction: 'outbound', status: 'sent', text: 'reply to first', key: `k-${uniqueSuffix()}`,
      },
    });
    const second = await post(a, session, 'second');

    const res = await request('GET', `/v1/sessions/${first.sessionId}/messages`, { key: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.session).toEqual({ id: first.sessionId, externalKey: session, status: 'active', createdAt: expect.any(String) });
    expect(res.body.messages.map((m: { id: string; direction: string; text: string; status: string }) => [m.id, m.direction, m.status, m.text])).toEqual([
      [first.messageId, 'inbound', 'queued', 'first'],
      [reply.id, 'outbound', 'sent', 'reply to first'],
      [second.messageId, 'inbound', 'queued', 'second'],
    ]);
    const seqs = res.body.messages.map((m: { seq: string }) => BigInt(m.seq));
    expect([...seqs].sort((x, y) => (x < y ? -1 : 1))).toEqual(seqs);
  });

  it('pages by seq with limit and after, ending with next = null', async () => {
    const session = `s-${uniqueSuffix()}`;
    const posted = [];
    for (const text of ['m1', 'm2', 'm3', 'm4', 'm5']) posted.push(await post(a, session, text));
    const path = `/v1/sessions/${posted[0].sessionId}/messages`;

    const texts: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse = await request('GET', `${path}?limit=2${after ? `&after=${after}` : ''}`, { key: a.apiKey });
      expect(res.status).toBe(200);
      texts.push(...res.body.messages.map((m: { text: string }) => m.text));
      after = res.body.next;
      pages++;
    } while (after !== null);
    expect(texts).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(pages).toBe(3);

    const whole = await request('GET', path, { key: a.apiKey });
    expect(whole.body.messages).toHaveLength(5);
    expect(whole.body.next).toBeNull();
  });

  it.each(['limit=0', 'limit=501', 'limit=x', 'after=-1', 'page=2'])('rejects ?%s with 400 validation-failed', async (q) => {
    const mine = await post(a, `s-${uniqueSuffix()}`, 'hello');
    const res = await request('GET', `/v1/sessions/${mine.sessionId}/messages?${q}`, { key: a.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation-failed');
    expect(res.body.error.details[0].location).toBe('query');
  });

  it("answers 404 session-not-found for another tenant's session and leaks nothing", async () => {
    const theirs = await post(b, `s-${uniqueSuffix()}`, 'private');
    const res = await request('GET', `/v1/sessions/${theirs.sessionId}/messages`, { key: a.apiKey });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'session-not-found', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toContain('private');
  });

  it('answers 404 session-not-found for an unknown id and for a malformed id', async () => {
    const unknown = await request('GET', '/v1/sessions/3f0c7a2e-1111-4222-8333-444455556666/messages', { key: a.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('session-not-found');
    const malformed = await request('GET', '/v1/sessions/not-a-uuid/messages', { key: a.apiKey });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('session-not-found');
  });

  it('requires the channel API key', async () => {
    const mine = await post(a, `s-${uniqueSuffix()}`, 'hello');
    const res = await request('GET', `/v1/sessions/${mine.sessionId}/messages`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing-api-key');
  });
});
