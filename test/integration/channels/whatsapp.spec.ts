import { createHmac } from 'node:crypto';
import { eventually } from '../worker/support/private-api';
import { request } from '../ops/support/ops-stack';
import { FakePlatform, type PlatformHit } from './support/fake-platform';
import { postRaw, startChannelsStack, type ChannelsStack } from './support/channels-stack';
import { imageNotification, PHONE_NUMBER_ID, reactionNotification, statusNotification, textNotification, voiceNotification } from './fixtures/whatsapp';

// WhatsApp Cloud API end to end: the hub.challenge handshake, notifications signed with
// X-Hub-Signature-256 over the raw body, replies through a fake Graph API in WhatsApp's
// formatting, split under 4096, a 429 waited out, and the 24-hour window (a template, or a dead
// letter with its own code).

jest.setTimeout(240_000);

const APP_SECRET = 'e2d7a0f3c9b84e1d8f6a5b4c3d2e1f00';
const ACCESS_TOKEN = 'EAAGm0PX4ZCpsBAExampleToken';
const MESSAGES_PATH = `/v21.0/${PHONE_NUMBER_ID}/messages`;

describe('WhatsApp channel', () => {
  let n = 0;
  const graph: FakePlatform = new FakePlatform(() => ({
    status: 200,
    body: { messaging_product: 'whatsapp', contacts: [{ input: '16505551234', wa_id: '16505551234' }], messages: [{ id: `wamid.out${++n}` }] },
  }));
  let s: ChannelsStack;
  let channelId: string;
  let verifyToken: string;
  let seq = 0;
  const wamid = () => `wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQz${Date.now()}${++seq}`;

  beforeAll(async () => {
    await graph.start();
    s = await startChannelsStack();
  });

  afterAll(async () => {
    await s?.stack.stop();
    await graph.stop();
  });

  const sends = (to: string) => graph.to(MESSAGES_PATH).filter((h) => (h.body as { to: string }).to === to);
  const bodyOf = (h: PlatformHit) => h.body as { type: string; text?: { body: string }; template?: unknown };
  const sign = (raw: string, secret = APP_SECRET) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
  const deliver = (payload: unknown, signature?: string) => {
    const raw = JSON.stringify(payload);
    return postRaw(s.stack.apiUrl, `/v1/channels/whatsapp/${channelId}`, raw, { 'x-hub-signature-256': signature ?? sign(raw) });
  };

  it('creates the channel and shows the URL and verify token to paste into Meta, once', async () => {
    const res = await request<Record<string, unknown>>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id,
      name: 'WhatsApp do hotel',
      kind: 'whatsapp',
      settings: { apiRoot: graph.url, apiVersion: 'v21.0', phoneNumberId: PHONE_NUMBER_ID },
      secrets: { appSecret: APP_SECRET, accessToken: ACCESS_TOKEN },
    });
    expect(res.status).toBe(201);
    channelId = res.body.id as string;
    const platform = res.body.platform as { inboundUrl: string; webhookRegistered: boolean; verifyToken: string };
    expect(platform).toEqual({ inboundUrl: `https://bots.example.test/v1/channels/whatsapp/${channelId}`, webhookRegistered: false, verifyToken: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/) });
    verifyToken = platform.verifyToken;
    expect(res.body.settings).toEqual({ apiRoot: graph.url, apiVersion: 'v21.0', phoneNumberId: PHONE_NUMBER_ID, template: null });
    const read = await request(s.stack, s.owner, 'GET', `/v1/admin/channels/${channelId}`);
    for (const secret of [APP_SECRET, ACCESS_TOKEN, verifyToken]) expect(JSON.stringify(read.body)).not.toContain(secret);
  });

  it('answers the hub.challenge handshake with the verify token, and 401 without it', async () => {
    const url = (token: string) => `${s.stack.apiUrl}/v1/channels/whatsapp/${channelId}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${token}`;
    const ok = await fetch(url(verifyToken));
    expect([ok.status, await ok.text()]).toEqual([200, '1158201444']);
    const bad = await fetch(url('wrong'));
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid-signature');
  });

  it('answers a signed message through the Graph API in WhatsApp formatting', async () => {
    const id = wamid();
    expect((await deliver(textNotification(id, '5541999990001', 'Olá'))).status).toBe(200);
    const [sent] = await eventually(async () => sends('5541999990001').length === 1 && sends('5541999990001'));
    expect(sent.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(sent.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '5541999990001', type: 'text', text: { preview_url: false, body: 'Oi! Você disse: *Olá* & <nada mais>' } });
    expect(await s.stack.prisma.message.count({ where: { channelId, externalId: id } })).toBe(1);
  });

  it('answers 401 to a wrong signature, or one over another body, and stores nothing', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const payload = textNotification(wamid(), '5541999990002', 'Olá');
    expect((await deliver(payload, sign(JSON.stringify(payload), 'another-secret'))).status).toBe(401);
    expect((await deliver(payload, sign(JSON.stringify({ ...payload, object: 'x' })))).status).toBe(401);
    const none = await postRaw(s.stack.apiUrl, `/v1/channels/whatsapp/${channelId}`, JSON.stringify(payload), {});
    expect([none.status, (none.body.error as { code: string }).code]).toEqual([401, 'invalid-signature']);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it('stores a message delivered three times once and replies once', async () => {
    const payload = textNotification(wamid(), '5541999990003', 'Bom dia');
    for (let i = 0; i < 3; i++) expect((await deliver(payload)).status).toBe(200);
    await eventually(async () => sends('5541999990003').length === 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sends('5541999990003')).toHaveLength(1);
  });

  it('acknowledges delivery receipts and reactions without storing them', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const receipt = await deliver(statusNotification('wamid.out1', '5541999990001'));
    expect(receipt).toEqual({ status: 200, body: { ok: true, stored: 0, ignored: 'statuses' } });
    const reaction = await deliver(reactionNotification(wamid(), '5541999990004'));
    expect(reaction.body).toEqual({ ok: true, stored: 0, ignored: 'message type reaction' });
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it('splits a reply over 4096 characters, in order', async () => {
    await deliver(textNotification(wamid(), '5541999990005', 'me conte algo longo'));
    const parts = await eventually(async () => sends('5541999990005').length === 4 && sends('5541999990005'));
    expect(parts.map((p) => bodyOf(p).text!.body.slice(0, 7))).toEqual(['Parte 1', 'Parte 2', 'Parte 3', 'Parte 4']);
    for (const p of parts) expect(bodyOf(p).text!.body.length).toBeLessThanOrEqual(4096);
  });

  it('waits out a 429 Retry-After, then delivers once', async () => {
    graph.answerNext(MESSAGES_PATH, { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429, fbtrace_id: 'Az8or2yhqkZfEZ-_4Qn_Bam' } } });
    await deliver(textNotification(wamid(), '5541999990006', 'Oi'));
    const attempts = await eventually(async () => sends('5541999990006').length === 2 && sends('5541999990006'));
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(2000);
  });

  it('answers an image and a voice note from their descriptions, keeping the media ids', async () => {
    const id = wamid();
    await deliver(imageNotification(id, '5541999990007', 'Olha o quarto'));
    const [sent] = await eventually(async () => sends('5541999990007').length === 1 && sends('5541999990007'));
    expect(bodyOf(sent).text!.body).toBe('Recebi sua foto: [image] Olha o quarto');
    const stored = await s.stack.prisma.message.findFirstOrThrow({ where: { channelId, externalId: id } });
    expect(stored.media).toMatchObject({ type: 'image', mediaId: '1003383421387256', mimeType: 'image/jpeg' });
    await deliver(voiceNotification(wamid(), '5541999990007'));
    await eventually(async () => sends('5541999990007').length === 2);
    expect(bodyOf(sends('5541999990007')[1]).text!.body).toBe('Recebi seu áudio.');
  });

  /** Sends "janela" and, while the (slow) model answers, moves the customer's message 25 hours back. */
  async function replyOutsideWindow(to: string): Promise<void> {
    const id = wamid();
    await deliver(textNotification(id, to, 'fora da janela'));
    const m = await eventually(() => s.stack.prisma.message.findFirst({ where: { channelId, externalId: id } }));
    await s.stack.prisma.message.update({ where: { id: m.id }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
  }

  it('outside the 24-hour window: dead-letters whatsapp-window-closed without a template, sends the template with one', async () => {
    await replyOutsideWindow('5541999990008');
    const dead = await eventually(() => s.stack.prisma.delivery.findFirst({ where: { channelId, status: 'dead', message: { session: { externalKey: '5541999990008' } } } }));
    expect(dead.lastError).toMatch(/^whatsapp-window-closed: /);
    expect(sends('5541999990008')).toHaveLength(0);

    const put = await request(s.stack, s.owner, 'PUT', `/v1/admin/channels/${channelId}`, {
      settings: { apiRoot: graph.url, apiVersion: 'v21.0', phoneNumberId: PHONE_NUMBER_ID, template: { name: 'retomar_conversa', language: 'pt_BR' } },
    });
    expect(put.status).toBe(200);
    await replyOutsideWindow('5541999990009');
    const [sent] = await eventually(async () => sends('5541999990009').length === 1 && sends('5541999990009'));
    expect(sent.body).toMatchObject({ to: '5541999990009', type: 'template', template: { name: 'retomar_conversa', language: { code: 'pt_BR' } } });
  });

  it('stops answering once the conversation is handed to a person', async () => {
    await deliver(textNotification(wamid(), '5541999990010', 'quero falar com um humano'));
    await eventually(async () => sends('5541999990010').length === 1);
    expect(bodyOf(sends('5541999990010')[0]).text!.body).toBe('Vou chamar um atendente.');
    const id = wamid();
    await deliver(textNotification(id, '5541999990010', 'Olá?'));
    await eventually(async () => (await s.stack.prisma.message.findFirst({ where: { channelId, externalId: id, status: 'answered' } })) !== null);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sends('5541999990010')).toHaveLength(1);
  });
});
