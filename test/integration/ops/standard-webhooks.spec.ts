import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { eventually } from '../worker/support/private-api';
import { request, startOpsStack, tokenFor, type OpsStack } from './support/ops-stack';
import { WebhookReceiver, type ReceivedHook } from './support/webhook-receiver';

// Issue 26's acceptance: real deliveries from a real worker to a local receiver, verified with
// the `standardwebhooks` npm library itself (not the project's code): a reply, a reply retried
// after a 500 (same webhook-id), a tampered body, a replay after the tolerance and a wrong secret
// refused, both secrets valid during a rotation; the fallback, hand-off and hand-back events; and
// a test delivery from the console API through the worker and its outbound guard.

jest.setTimeout(240_000);

const FALLBACK = 'Desculpe, tive um problema. Já te respondo.';

/** Replies "Oi!" and hands off when asked for a person. */
const agentConfig: AgentConfig = {
  provider: {
    kind: 'scripted',
    model: 'webhooks-script',
    scripted: {
      rules: [
        { call: 'speak', round: 1, match: 'humano', toolCalls: [{ name: 'handoff_to_human', arguments: { motivo: 'pediu um humano' } }] },
        { call: 'speak', afterTool: 'handoff_to_human', reply: 'Vou chamar um atendente.' },
        { call: 'speak', reply: 'Oi! Como posso ajudar?' },
      ],
    },
  },
  fields: {},
  flows: [],
  tools: ['handoff_to_human'],
};

/** The Concierge on a model that refuses every call for good: the run ends and the customer gets the fallback. */
const failingConfig: AgentConfig = {
  ...conciergeAgentConfig,
  provider: { ...conciergeAgentConfig.provider, scripted: { rules: [{ fail: { kind: 'auth', message: 'bad key' } }] } },
  fallbackMessage: FALLBACK,
};

const headersOf = (hit: ReceivedHook) => hit.headers as Record<string, string>;
const typeOf = (hit: ReceivedHook) => (JSON.parse(hit.body) as { type: string }).type;

interface Posted {
  sessionId: string;
  messageId: string;
  replies: { id: string; text: string }[];
}

interface TestDeliveryAnswer {
  ok: boolean;
  webhookId: string;
  channelId: string;
  url: string;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  truncated?: boolean;
  error?: { code: string; message: string };
  ms: number;
}

describe('Standard Webhooks deliveries, verified with the standardwebhooks library', () => {
  const receiver = new WebhookReceiver();
  let stack: OpsStack;
  let fx: TenantFixture;
  let owner: string;
  let operator: string;
  let secret: string;

  beforeAll(async () => {
    await receiver.start();
    stack = await startOpsStack({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200', DELIVERY_BACKOFF_MS: '50', DELIVERY_MAX_ATTEMPTS: '5' });
    fx = await createTenantFixture(stack.prisma, { agentConfig });
    owner = await tokenFor(stack, 'owner', fx.tenant.id);
    operator = await tokenFor(stack, 'operator', fx.tenant.id);
    secret = await rotate(0);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  });

  async function rotate(graceSeconds: number, channelId = fx.channel.id, token = owner): Promise<string> {
    const res = await request<{ webhookSecret: string }>(stack, token, 'POST', `/v1/admin/channels/${channelId}/rotate-secret`, { graceSeconds });
    expect(res.status).toBe(200);
    return res.body.webhookSecret;
  }

  async function pointWebhookAt(url: string, channelId = fx.channel.id, token = owner): Promise<void> {
    const res = await request(stack, token, 'PUT', `/v1/admin/channels/${channelId}`, { webhookUrl: url });
    expect(res.status).toBe(200);
  }

  async function post(session: string, text: string, apiKey = fx.apiKey): Promise<Posted> {
    const res = await request<Posted>(stack, apiKey, 'POST', '/v1/messages?wait=30', { session, text });
    expect(res.status).toBe(200);
    return res.body;
  }

  /** The receiver's hits on `path` once `n` of them were answered 200. */
  const delivered = (path: string, n: number) =>
    eventually(async () => {
      const hits = receiver.hits(path);
      return hits.filter((h) => h.answered === 200).length >= n && hits;
    }, 60_000);

  it('delivers a reply retried after a 500 with the same webhook-id, each attempt verified by the library', async () => {
    receiver.failNext('/reply', 1);
    await pointWebhookAt(`${receiver.url}/reply`);
    const { sessionId, replies } = await post(`w-${uniqueSuffix()}`, 'Oi');
    const messageId = replies[0].id;

    const hits = await delivered('/reply', 1);
    expect(hits.map((h) => h.answered)).toEqual([500, 200]);
    // The receiver counts the hit before the dispatcher has written the outcome: wait for the row.
    const delivery = await eventually(async () => {
      const row = await stack.prisma.delivery.findUniqueOrThrow({ where: { messageId } });
      return row.status === 'delivered' && row;
    }, 30_000);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    // The same webhook-id on the first attempt and on its retry: the delivery's id.
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    for (const hit of hits) {
      expect(new Webhook(secret).verify(hit.body, headersOf(hit))).toEqual({
        type: 'message.reply',
        version: 1,
        timestamp: expect.any(String),
        deliveryId: delivery.id,
        channelId: fx.channel.id,
        sessionId,
        session: expect.stringMatching(/^w-/),
        messageId,
        text: 'Oi! Como posso ajudar?',
        createdAt: expect.any(String),
      });
    }

    const [, retried] = hits;
    // A tampered body and another channel's secret: refused by the library.
    expect(() => new Webhook(secret).verify(retried.body.replace('Como posso', 'Posso'), headersOf(retried))).toThrow(
      new WebhookVerificationError('No matching signature found'),
    );
    const wrongSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => new Webhook(wrongSecret).verify(retried.body, headersOf(retried))).toThrow(new WebhookVerificationError('No matching signature found'));
    // The genuine request replayed 6 minutes later (beyond the library's 5-minute tolerance): refused.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 6 * 60_000);
    try {
      expect(() => new Webhook(secret).verify(retried.body, headersOf(retried))).toThrow(new WebhookVerificationError('Message timestamp too old'));
    } finally {
      clock.mockRestore();
    }
    // And an old timestamp put on it by hand no longer matches its signature.
    const old = { ...headersOf(retried), 'webhook-timestamp': String(Math.floor(now / 1000) - 60) };
    expect(() => new Webhook(secret).verify(retried.body, old)).toThrow(new WebhookVerificationError('No matching signature found'));
  });

  it('signs with both secrets during a rotation, then with the new one alone', async () => {
    await pointWebhookAt(`${receiver.url}/rotation`);
    const previous = secret;
    const next = await rotate(3600);
    await post(`w-${uniqueSuffix()}`, 'Oi de novo');
    const [during] = await delivered('/rotation', 1);
    expect(headersOf(during)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(during.body, headersOf(during))).toMatchObject({ type: 'message.reply' });
    expect(new Webhook(next).verify(during.body, headersOf(during))).toMatchObject({ type: 'message.reply' });

    // A rotation without grace: the replaced secret stops at once.
    const latest = await rotate(0);
    await post(`w-${uniqueSuffix()}`, 'Oi outra vez');
    const [, after] = await delivered('/rotation', 2);
    expect(new Webhook(latest).verify(after.body, headersOf(after))).toMatchObject({ type: 'message.reply' });
    expect(() => new Webhook(next).verify(after.body, headersOf(after))).toThrow(new WebhookVerificationError('No matching signature found'));
    secret = latest;
  });

  it('delivers the fallback message as message.fallback', async () => {
    const failing = await createTenantFixture(stack.prisma, { agentConfig: failingConfig });
    const failingOwner = await tokenFor(stack, 'owner', failing.tenant.id);
    await pointWebhookAt(`${receiver.url}/fallback`, failing.channel.id, failingOwner);
    const failingSecret = await rotate(0, failing.channel.id, failingOwner);
    const { replies } = await post(`w-${uniqueSuffix()}`, 'Quero um quarto em Curitiba', failing.apiKey);
    expect(replies).toEqual([{ id: expect.any(String), text: FALLBACK }]);
    const [hit] = await delivered('/fallback', 1);
    expect(new Webhook(failingSecret).verify(hit.body, headersOf(hit))).toMatchObject({ type: 'message.fallback', version: 1, messageId: replies[0].id, text: FALLBACK });
  });

  it('delivers a hand-off and a hand-back as session events', async () => {
    await pointWebhookAt(`${receiver.url}/handoff`);
    const session = `w-${uniqueSuffix()}`;
    const { sessionId } = await post(session, 'quero falar com um humano');
    const hits = await delivered('/handoff', 2);
    expect(hits.map(typeOf).sort()).toEqual(['message.reply', 'session.handed_off']);
    const handOff = hits.find((h) => typeOf(h) === 'session.handed_off')!;
    const event = new Webhook(secret).verify(handOff.body, headersOf(handOff));
    expect(event).toEqual({
      type: 'session.handed_off',
      version: 1,
      timestamp: expect.any(String),
      deliveryId: handOff.headers['webhook-id'],
      channelId: fx.channel.id,
      sessionId,
      session,
      reason: 'pediu um humano',
    });

    const back = await request(stack, operator, 'POST', `/v1/admin/sessions/${sessionId}/hand-back`);
    expect(back.status).toBe(200);
    const [, , handBack] = await delivered('/handoff', 3);
    expect(new Webhook(secret).verify(handBack.body, headersOf(handBack))).toMatchObject({ type: 'session.handed_back', sessionId, session });
  });

  it('sends a signed test delivery from a worker and answers what the receiver said, through the outbound guard', async () => {
    const testDelivery = () => request<TestDeliveryAnswer>(stack, owner, 'POST', `/v1/admin/channels/${fx.channel.id}/test-delivery`);
    await pointWebhookAt(`${receiver.url}/test`);

    const ok = await testDelivery();
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, channelId: fx.channel.id, url: `${receiver.url}/test`, status: 200, body: 'ok', truncated: false });
    expect(ok.body.headers).toMatchObject({ 'content-length': '2' });
    const [hit] = receiver.hits('/test');
    expect(hit.headers['webhook-id']).toBe(ok.body.webhookId);
    expect(new Webhook(secret).verify(hit.body, headersOf(hit))).toMatchObject({ type: 'webhook.test', version: 1, deliveryId: ok.body.webhookId, channelId: fx.channel.id });

    receiver.failNext('/test', 1);
    const refused = await testDelivery();
    expect(refused.body).toMatchObject({ ok: true, status: 500, body: 'receiver down' });

    // The URL is the tenant's: a private address is refused before anything is sent.
    await pointWebhookAt('http://10.0.0.1/hook');
    const guarded = await testDelivery();
    expect(guarded.status).toBe(200);
    expect(guarded.body).toMatchObject({ ok: false, error: { code: 'webhook-address-forbidden', message: expect.stringMatching(/^refused to call 10\.0\.0\.1/) } });

    const audit = await stack.prisma.auditLog.findMany({ where: { entityId: fx.channel.id, action: 'channel.test-delivery' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.after)).toEqual([
      { url: `${receiver.url}/test`, webhookId: ok.body.webhookId, status: 200, ms: expect.any(Number) },
      { url: `${receiver.url}/test`, webhookId: refused.body.webhookId, status: 500, ms: expect.any(Number) },
      { url: 'http://10.0.0.1/hook', webhookId: guarded.body.webhookId, error: 'webhook-address-forbidden', ms: expect.any(Number) },
    ]);
    // A test is not a delivery: nothing was stored for it.
    expect(await stack.prisma.delivery.count({ where: { id: { in: [ok.body.webhookId, refused.body.webhookId] } } })).toBe(0);
  });
});
