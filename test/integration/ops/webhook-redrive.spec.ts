import { conciergeAgentConfig } from '@switchboard/agent-config';
import { Webhook } from 'standardwebhooks';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { eventually } from '../worker/support/private-api';
import { listPath, request, startOpsStack, tokenFor, type OpsStack } from './support/ops-stack';
import { WebhookReceiver } from './support/webhook-receiver';

// Webhook deliveries end to end through the console API and a real worker process: a reply the
// receiver keeps refusing goes dead, an operator redrives it once the receiver is fixed, and it
// is delivered once with a valid signature; a receiver that fails twice gets each reply once, in
// session order.

jest.setTimeout(240_000);

interface Delivery {
  id: string;
  messageId: string;
  sessionId: string;
  channelId: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

describe('webhook deliveries: dead, redriven, delivered once', () => {
  const receiver = new WebhookReceiver();
  let stack: OpsStack;
  let fx: TenantFixture;
  let other: TenantFixture;
  let owner: string;
  let operator: string;
  let viewer: string;
  let otherOperator: string;
  let secret: string;

  beforeAll(async () => {
    await receiver.start();
    stack = await startOpsStack({
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      DELIVERY_POLL_MS: '200',
      DELIVERY_BACKOFF_MS: '50',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
    fx = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    other = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    owner = await tokenFor(stack, 'owner', fx.tenant.id);
    operator = await tokenFor(stack, 'operator', fx.tenant.id);
    viewer = await tokenFor(stack, 'viewer', fx.tenant.id);
    otherOperator = await tokenFor(stack, 'operator', other.tenant.id);
    const rotated = await request<{ webhookSecret: string }>(stack, owner, 'POST', `/v1/admin/channels/${fx.channel.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    secret = rotated.body.webhookSecret;
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  });

  async function pointWebhookAt(path: string): Promise<void> {
    const res = await request(stack, owner, 'PUT', `/v1/admin/channels/${fx.channel.id}`, { webhookUrl: `${receiver.url}${path}` });
    expect(res.status).toBe(200);
  }

  async function post(session: string, text: string, wait = true): Promise<{ messageId: string; sessionId: string }> {
    const res = await request<{ messageId: string; sessionId: string }>(stack, fx.apiKey, 'POST', `/v1/messages${wait ? '?wait=30' : ''}`, { session, text });
    expect([200, 202]).toContain(res.status);
    return res.body;
  }

  const deliveriesOf = async (sessionId: string) =>
    (await request<Delivery[]>(stack, operator, 'GET', listPath('/v1/admin/deliveries', { filter: { sessionId }, sort: ['createdAt', 'ASC'] }))).body;

  /** The body of every request the receiver accepted (200) for `path`, in arrival order. */
  const accepted = (path: string) => receiver.hits(path).filter((h) => h.answered === 200);

  it('dead-letters a reply the receiver refuses, then delivers it once, signed, after a redrive', async () => {
    receiver.failNext('/down', -1);
    await pointWebhookAt('/down');
    const { sessionId } = await post(`s-${uniqueSuffix()}`, 'Quero um quarto em Curitiba');

    const [dead] = await eventually(async () => {
      const rows = await deliveriesOf(sessionId);
      return rows.length === 1 && rows[0].status === 'dead' && rows;
    }, 60_000);
    expect(dead).toMatchObject({ attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500: receiver down', url: `${receiver.url}/down` });
    expect(receiver.hits('/down')).toHaveLength(3);

    // The detail shows what an operator needs, never the signing secret.
    const detail = await request<Delivery>(stack, operator, 'GET', `/v1/admin/deliveries/${dead.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: dead.id, status: 'dead', attempts: 3, lastStatusCode: 500, sessionId });
    expect(JSON.stringify(detail.body)).not.toContain(secret);
    expect(Object.keys(detail.body).filter((k) => /secret/i.test(k))).toEqual([]);

    // The tenant's backlog counts it; the other tenant's does not.
    const mine = await request<{ backlog: { deliveriesDead: number } }>(stack, operator, 'GET', '/v1/admin/queues');
    expect(mine.body.backlog.deliveriesDead).toBe(1);
    const theirs = await request<{ backlog: { deliveriesDead: number } }>(stack, otherOperator, 'GET', '/v1/admin/queues');
    expect(theirs.body.backlog.deliveriesDead).toBe(0);

    // Neither a viewer nor another tenant's operator can redrive it; nothing changes.
    expect((await request(stack, viewer, 'POST', `/v1/admin/deliveries/${dead.id}/redrive`)).status).toBe(403);
    const foreign = await request<{ error: { code: string } }>(stack, otherOperator, 'POST', `/v1/admin/deliveries/${dead.id}/redrive`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not-found']);
    expect(await stack.prisma.delivery.findUniqueOrThrow({ where: { id: dead.id } })).toMatchObject({ status: 'dead', attempts: 3 });

    receiver.failNext('/down', 0);
    const redriven = await request<Delivery>(stack, operator, 'POST', `/v1/admin/deliveries/${dead.id}/redrive`);
    expect(redriven.status).toBe(200);
    expect(redriven.body).toMatchObject({ id: dead.id, status: 'pending', attempts: 0 });

    await eventually(async () => (await deliveriesOf(sessionId))[0].status === 'delivered', 60_000);
    const [delivered] = await deliveriesOf(sessionId);
    expect(delivered).toMatchObject({ attempts: 1, lastStatusCode: 200, lastError: null });
    const ok = accepted('/down');
    expect(ok).toHaveLength(1);
    expect(JSON.parse(ok[0].body)).toMatchObject({ type: 'message.reply', deliveryId: dead.id, sessionId, text: 'A diária em Curitiba sai por R$ 420. Posso reservar?' });
    expect(new Webhook(secret).verify(ok[0].body, ok[0].headers as Record<string, string>)).toMatchObject({ deliveryId: dead.id });
    expect(ok[0].headers['webhook-id']).toBe(dead.id);

    // A delivered reply cannot be redriven (it would be sent twice).
    const again = await request<{ error: { code: string } }>(stack, operator, 'POST', `/v1/admin/deliveries/${dead.id}/redrive`);
    expect([again.status, again.body.error.code]).toEqual([409, 'delivery-not-redrivable']);

    const audit = await stack.prisma.auditLog.findMany({ where: { tenantId: fx.tenant.id, action: 'delivery.redrive' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entityType: 'delivery', entityId: dead.id, before: expect.objectContaining({ status: 'dead', attempts: 3 }), after: { status: 'pending', attempts: 0 } });
  });

  it('delivers each reply of a session once and in order when the receiver fails twice first', async () => {
    receiver.failNext('/flaky', 2);
    await pointWebhookAt('/flaky');
    const session = `s-${uniqueSuffix()}`;
    // Both accepted at once: the second reply exists while the first is still being retried.
    const first = await post(session, 'Quero um quarto em Curitiba', false);
    await post(session, 'Sim, pode reservar', false);

    const rows = await eventually(async () => {
      const list = await deliveriesOf(first.sessionId);
      return list.length === 2 && list.every((d) => d.status === 'delivered') && list;
    }, 90_000);
    const replies = await stack.prisma.message.findMany({ where: { sessionId: first.sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
    expect(replies).toHaveLength(2);

    const hits = receiver.hits('/flaky');
    // Three tries of the first reply (two refused), then the second: never the second before the first is through.
    expect(hits.map((h) => [JSON.parse(h.body).messageId, h.answered])).toEqual([
      [replies[0].id, 500],
      [replies[0].id, 500],
      [replies[0].id, 200],
      [replies[1].id, 200],
    ]);
    for (const h of hits) {
      expect(new Webhook(secret).verify(h.body, h.headers as Record<string, string>)).toMatchObject({ type: 'message.reply' });
    }
    expect(rows.map((d) => [d.messageId, d.attempts])).toEqual([
      [replies[0].id, 3],
      [replies[1].id, 1],
    ]);
  });
});
