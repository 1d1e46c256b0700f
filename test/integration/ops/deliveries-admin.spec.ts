import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@switchboard/db';
import { eventDeliveryRow, handedOffEvent } from '@switchboard/webhooks';
import { adminGet, adminSend, apiUrl, createSession, errorOf, openDb, tenantWithUsers } from '../admin/support/admin-fixtures';

// GET /v1/admin/deliveries(/:id) and POST /:id/redrive over HTTP against the shared API, with
// rows written straight to the database: the list dialect (filters, sort, range, Content-Range),
// what a delivery shows, which roles may see and redrive, and that another tenant's ids are 404.
// No delivery here is due (nextAttemptAt null), so no dispatcher of another suite picks one up.

jest.setTimeout(60_000);

type World = Awaited<ReturnType<typeof world>>;

async function world(db: PrismaClient) {
  const t = await tenantWithUsers(db, ['owner', 'operator', 'viewer'] as const);
  const s1 = await createSession(db, t);
  const s2 = await createSession(db, t);
  const make = async (sessionId: string, status: 'pending' | 'failed' | 'dead' | 'delivered', attempts: number, url = 'https://hooks.example.test/in') => {
    const m = await db.message.create({
      data: { tenantId: t.tenant.id, sessionId, channelId: t.channel.id, direction: 'outbound', status: 'sent', text: `reply ${status}` },
    });
    return db.delivery.create({
      data: {
        tenantId: t.tenant.id,
        channelId: t.channel.id,
        messageId: m.id,
        url,
        status,
        attempts,
        nextAttemptAt: null,
        lastStatusCode: status === 'delivered' ? 200 : status === 'pending' ? null : 500,
        lastError: status === 'dead' || status === 'failed' ? 'HTTP 500: receiver down' : null,
      },
    });
  };
  const dead = await make(s1.id, 'dead', 12, 'https://hook-user:hook-pass@hooks.example.test/in?x=1');
  const failed = await make(s1.id, 'failed', 2);
  const delivered = await make(s2.id, 'delivered', 1);
  // An event that is not a reply: a hand-off, stored whole, with its session and no message.
  const handOff = handedOffEvent({ deliveryId: randomUUID(), channelId: t.channel.id, sessionId: s2.id, session: s2.externalKey, at: new Date() }, 'pediu');
  const pending = await db.delivery.create({ data: { ...eventDeliveryRow(handOff, t.tenant.id, 'https://hooks.example.test/in'), nextAttemptAt: null } });
  return { ...t, s1, s2, dead, failed, delivered, pending };
}

let db: PrismaClient;
let a: World;
let b: World;
let platform: string;

beforeAll(async () => {
  db = openDb();
  [a, b] = await Promise.all([world(db), world(db)]);
  platform = (await tenantWithUsers(db, ['platform_admin'] as const)).tokens.platform_admin;
});
afterAll(() => db.$disconnect());

const ids = (body: unknown) => (body as { id: string }[]).map((d) => d.id);

describe('GET /v1/admin/deliveries', () => {
  it('lists the tenant’s deliveries with the total in Content-Range, newest first', async () => {
    const res = await adminGet(a.tokens.operator, '/v1/admin/deliveries');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('deliveries 0-3/4');
    expect(ids(res.body)).toEqual([a.pending.id, a.delivered.id, a.failed.id, a.dead.id]);
  });

  it.each([
    [{ status: 'dead' }, ['dead']],
    [{ status: ['dead', 'failed'] }, ['failed', 'dead']],
    [{ sessionId: 's1' }, ['failed', 'dead']],
    [{ sessionId: 's2', status: 'pending' }, ['pending']],
    [{ messageId: 'deliveredMessage' }, ['delivered']],
    [{ channelId: 'channel' }, ['pending', 'delivered', 'failed', 'dead']],
  ])('filters by %j', async (filter, expected) => {
    const values: Record<string, string> = { s1: a.s1.id, s2: a.s2.id, deliveredMessage: a.delivered.messageId!, channel: a.channel.id };
    const resolved = Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, typeof v === 'string' && values[v] ? values[v] : v]));
    const res = await adminGet(a.tokens.operator, '/v1/admin/deliveries', { filter: resolved });
    expect(res.status).toBe(200);
    const byStatus = Object.fromEntries(['dead', 'failed', 'delivered', 'pending'].map((s) => [a[s as 'dead'].id, s]));
    expect(ids(res.body).map((id) => byStatus[id])).toEqual(expected);
    expect(res.headers.get('content-range')).toBe(`deliveries 0-${expected.length - 1}/${expected.length}`);
  });

  it('sorts and pages', async () => {
    const res = await adminGet(a.tokens.operator, '/v1/admin/deliveries', { sort: ['attempts', 'DESC'], range: [0, 1] });
    expect(ids(res.body)).toEqual([a.dead.id, a.failed.id]);
    expect(res.headers.get('content-range')).toBe('deliveries 0-1/4');
  });

  it.each([
    [{ filter: { status: 'lost' } }, 'invalid-filter'],
    [{ filter: { sessionId: 'nope' } }, 'invalid-filter'],
    [{ filter: { url: 'x' } }, 'invalid-filter'],
    [{ sort: ['url', 'ASC'] }, 'invalid-sort'],
    [{ range: [0, 500] }, 'invalid-range'],
  ])('answers 400 to %j', async (query, code) => {
    const res = await adminGet(a.tokens.operator, '/v1/admin/deliveries', query);
    expect([res.status, errorOf(res.body).code]).toEqual([400, code]);
  });

  it('shows a platform admin every tenant, and a tenant none of another’s rows', async () => {
    const all = await adminGet(platform, '/v1/admin/deliveries', { filter: { channelId: [a.channel.id, b.channel.id] } });
    expect(all.headers.get('content-range')).toBe('deliveries 0-7/8');
    // A platform admin who picked a tenant in the console (X-Tenant-Id) sees that tenant's only.
    const picked = await fetch(apiUrl('/v1/admin/deliveries'), { headers: { authorization: `Bearer ${platform}`, 'x-tenant-id': a.tenant.id } });
    expect(picked.headers.get('content-range')).toBe('deliveries 0-3/4');
    const queues = await fetch(apiUrl('/v1/admin/queues'), { headers: { authorization: `Bearer ${platform}`, 'x-tenant-id': a.tenant.id } });
    expect(await queues.json()).toMatchObject({ scope: 'platform', tenantId: a.tenant.id, backlog: { deliveriesDead: 1 } });
    const asked = await adminGet(a.tokens.owner, '/v1/admin/deliveries', { filter: { id: [b.dead.id, b.failed.id] } });
    expect([asked.status, asked.body]).toEqual([200, []]);
  });
});

describe('GET /v1/admin/deliveries/:id', () => {
  it('shows attempts, last status and error, and the URL without its credentials', async () => {
    const res = await adminGet(a.tokens.operator, `/v1/admin/deliveries/${a.dead.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: a.dead.id,
      tenantId: a.tenant.id,
      channelId: a.channel.id,
      messageId: a.dead.messageId,
      sessionId: a.s1.id,
      type: 'message.reply',
      url: 'https://***@hooks.example.test/in?x=1',
      status: 'dead',
      attempts: 12,
      nextAttemptAt: null,
      lastStatusCode: 500,
      lastError: 'HTTP 500: receiver down',
      deliveredAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('hook-pass');
  });

  it('shows an event that is not a reply with its type and session, and no message', async () => {
    const res = await adminGet(a.tokens.operator, `/v1/admin/deliveries/${a.pending.id}`);
    expect(res.body).toMatchObject({ id: a.pending.id, type: 'session.handed_off', messageId: null, sessionId: a.s2.id, status: 'pending' });
    expect(res.body).not.toHaveProperty('payload');
  });

  it('answers 404 for another tenant’s id and for a malformed one', async () => {
    for (const id of [b.dead.id, 'not-a-uuid']) {
      const res = await adminGet(a.tokens.owner, `/v1/admin/deliveries/${id}`);
      expect([res.status, errorOf(res.body).code]).toEqual([404, 'not-found']);
    }
  });
});

describe('POST /v1/admin/deliveries/:id/redrive', () => {
  const snapshot = (id: string) => db.delivery.findUniqueOrThrow({ where: { id } });

  it('makes a failed delivery pending again with fresh attempts, and records it in the audit log', async () => {
    const res = await adminSend(a.tokens.operator, 'POST', `/v1/admin/deliveries/${a.failed.id}/redrive`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.failed.id, status: 'pending', attempts: 0, nextAttemptAt: expect.any(String) });
    const audit = await db.auditLog.findFirstOrThrow({ where: { entityId: a.failed.id, action: 'delivery.redrive' } });
    expect(audit).toMatchObject({ tenantId: a.tenant.id, actorUserId: a.users.operator.id, entityType: 'delivery' });
  });

  it.each(['delivered', 'pending'] as const)('answers 409 delivery-not-redrivable for a %s delivery and changes nothing', async (status) => {
    const before = await snapshot(a[status].id);
    const res = await adminSend(a.tokens.owner, 'POST', `/v1/admin/deliveries/${a[status].id}/redrive`);
    expect([res.status, errorOf(res.body).code]).toEqual([409, 'delivery-not-redrivable']);
    expect(await snapshot(a[status].id)).toEqual(before);
  });

  it('answers 404 for another tenant’s delivery and changes nothing', async () => {
    const before = await snapshot(b.dead.id);
    const res = await adminSend(a.tokens.owner, 'POST', `/v1/admin/deliveries/${b.dead.id}/redrive`);
    expect([res.status, errorOf(res.body).code]).toEqual([404, 'not-found']);
    expect(await snapshot(b.dead.id)).toEqual(before);
  });
});

describe('roles', () => {
  it('refuses viewers every delivery route, the queue view and the dead letters', async () => {
    const before = await db.delivery.findUniqueOrThrow({ where: { id: a.dead.id } });
    for (const path of ['/v1/admin/deliveries', `/v1/admin/deliveries/${a.dead.id}`, '/v1/admin/queues', '/v1/admin/dead-letters']) {
      const res = await adminGet(a.tokens.viewer, path);
      expect([path, res.status, errorOf(res.body).code]).toEqual([path, 403, 'forbidden']);
    }
    for (const path of [`/v1/admin/deliveries/${a.dead.id}/redrive`, `/v1/admin/sessions/${a.s1.id}/hand-back`]) {
      const res = await adminSend(a.tokens.viewer, 'POST', path);
      expect([path, res.status, errorOf(res.body).code]).toEqual([path, 403, 'forbidden']);
    }
    expect(await db.delivery.findUniqueOrThrow({ where: { id: a.dead.id } })).toEqual(before);
  });

  it('gives tenant roles their own backlog without the global queue counts', async () => {
    const res = await adminGet(a.tokens.operator, '/v1/admin/queues');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      scope: 'tenant',
      tenantId: a.tenant.id,
      backlog: expect.objectContaining({ messagesQueued: 0, deliveriesDead: 1, deadLetters: 0 }),
    });
  });
});
