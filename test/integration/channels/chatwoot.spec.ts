import { eventually } from '../worker/support/private-api';
import { request } from '../ops/support/ops-stack';
import { FakePlatform, type PlatformHit } from './support/fake-platform';
import { postRaw, startChannelsStack, type ChannelsStack } from './support/channels-stack';
import { ACCOUNT_ID, imageMessage, messageCreated, outgoingMessage, statusChanged } from './fixtures/chatwoot';

// Chatwoot as an agent bot end to end: events come to the URL with its secret, replies go to a
// fake Chatwoot API as outgoing messages, and a hand-off opens the conversation for Chatwoot's
// agents (toggle_status open): the bot stays silent until Chatwoot sets it back to pending.

jest.setTimeout(240_000);

const BOT_TOKEN = 'cw-agent-bot-token-8f2c1d';

describe('Chatwoot channel', () => {
  const chatwoot = new FakePlatform(() => ({ status: 200, body: { id: 1, content: 'ok', message_type: 1 } }));
  let s: ChannelsStack;
  let channelId: string;
  let inboundUrl: string;
  let messageId = 70_000;

  beforeAll(async () => {
    await chatwoot.start();
    s = await startChannelsStack();
  });

  afterAll(async () => {
    await s?.stack.stop();
    await chatwoot.stop();
  });

  const conversationPath = (c: number) => `/api/v1/accounts/${ACCOUNT_ID}/conversations/${c}`;
  const replies = (c: number) => chatwoot.to(`${conversationPath(c)}/messages`);
  const contentOf = (h: PlatformHit) => (h.body as { content: string }).content;
  /** The inbound URL as the console showed it, on this stack's API. */
  const deliver = (event: unknown, url = inboundUrl) => postRaw(s.stack.apiUrl, new URL(url).pathname + new URL(url).search, JSON.stringify(event), {});

  it('creates the channel and shows the webhook URL with its secret, once', async () => {
    const res = await request<Record<string, unknown>>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id,
      name: 'Chatwoot do hotel',
      kind: 'chatwoot',
      settings: { baseUrl: chatwoot.url, accountId: ACCOUNT_ID },
      secrets: { agentBotToken: BOT_TOKEN },
    });
    expect(res.status).toBe(201);
    channelId = res.body.id as string;
    inboundUrl = (res.body.platform as { inboundUrl: string }).inboundUrl;
    expect(inboundUrl).toMatch(new RegExp(`^https://bots\\.example\\.test/v1/channels/chatwoot/${channelId}\\?secret=[A-Za-z0-9_-]{40,}$`));
    const read = await request(s.stack, s.owner, 'GET', `/v1/admin/channels/${channelId}`);
    expect(JSON.stringify(read.body)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(read.body)).not.toContain(new URL(inboundUrl).searchParams.get('secret'));
  });

  it('answers an incoming message with an outgoing one through the Chatwoot API', async () => {
    expect((await deliver(messageCreated(++messageId, 101, 'Olá'))).status).toBe(200);
    const [sent] = await eventually(async () => replies(101).length === 1 && replies(101));
    expect(sent.headers.api_access_token).toBe(BOT_TOKEN);
    expect(sent.body).toEqual({ content: 'Oi! Você disse: **Olá** & <nada mais>', message_type: 'outgoing', private: false });
  });

  it('answers 401 to a wrong or missing secret and stores nothing', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const wrong = await postRaw(s.stack.apiUrl, `/v1/channels/chatwoot/${channelId}?secret=guess`, JSON.stringify(messageCreated(++messageId, 102, 'Olá')), {});
    expect([wrong.status, (wrong.body.error as { code: string }).code]).toEqual([401, 'invalid-signature']);
    expect((await postRaw(s.stack.apiUrl, `/v1/channels/chatwoot/${channelId}`, JSON.stringify(messageCreated(messageId, 102, 'Olá')), {})).status).toBe(401);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it('stores an event delivered three times once and replies once; ignores its own outgoing messages', async () => {
    const event = messageCreated(++messageId, 103, 'Bom dia');
    for (let i = 0; i < 3; i++) expect((await deliver(event)).status).toBe(200);
    await eventually(async () => replies(103).length === 1);
    const own = await deliver(outgoingMessage(++messageId, 103, 'Oi! Você disse: **Bom dia**'));
    expect(own.body).toEqual({ ok: true, stored: 0, ignored: 'outgoing message' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(replies(103)).toHaveLength(1);
  });

  it('splits a long reply in order and waits out a 429 Retry-After', async () => {
    chatwoot.answerNext(`${conversationPath(104)}/messages`, { status: 429, headers: { 'retry-after': '2' }, body: { error: 'Too many requests' } });
    await deliver(messageCreated(++messageId, 104, 'me conte algo longo'));
    const hits = await eventually(async () => replies(104).length === 5 && replies(104));
    // The first try was refused with 429: the same first part came again, 2 s later, then the rest.
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(2000);
    expect(hits.slice(1).map((h) => contentOf(h).slice(0, 7))).toEqual(['Parte 1', 'Parte 2', 'Parte 3', 'Parte 4']);
    expect(contentOf(hits[0])).toBe(contentOf(hits[1]));
  });

  it('answers an image from its description, keeping the attachment URL', async () => {
    const id = ++messageId;
    await deliver(imageMessage(id, 105, 'Olha o quarto'));
    const [sent] = await eventually(async () => replies(105).length === 1 && replies(105));
    expect(contentOf(sent)).toBe('Recebi sua foto: [image] Olha o quarto');
    const stored = await s.stack.prisma.message.findFirstOrThrow({ where: { channelId, externalId: String(id) } });
    expect(stored.media).toMatchObject({ type: 'image', url: 'https://chatwoot.example/rails/active_storage/blobs/quarto.jpg', attachmentId: 911 });
  });

  it('hands off: opens the conversation for agents, stays silent, and answers again once Chatwoot sets it back to pending', async () => {
    await deliver(messageCreated(++messageId, 106, 'quero falar com um humano'));
    await eventually(async () => replies(106).length === 1);
    expect(contentOf(replies(106)[0])).toBe('Vou chamar um atendente.');
    const [opened] = await eventually(async () => chatwoot.to(`${conversationPath(106)}/toggle_status`).length === 1 && chatwoot.to(`${conversationPath(106)}/toggle_status`));
    expect(opened.body).toEqual({ status: 'open' });

    const during = ++messageId;
    await deliver(messageCreated(during, 106, 'Olá? Alguém?'));
    await eventually(async () => (await s.stack.prisma.message.findFirst({ where: { channelId, externalId: String(during), status: 'answered' } })) !== null);
    await new Promise((r) => setTimeout(r, 1000));
    expect(replies(106)).toHaveLength(1);

    expect((await deliver(statusChanged(106, 'open'))).body).toEqual({ ok: true, stored: 0, ignored: 'conversation status open' });
    expect((await deliver(statusChanged(106, 'pending'))).status).toBe(200);
    expect((await s.stack.prisma.session.findFirstOrThrow({ where: { channelId, externalKey: '106' } })).status).toBe('active');
    await deliver(messageCreated(++messageId, 106, 'Voltei'));
    await eventually(async () => replies(106).length === 2);
    expect(contentOf(replies(106)[1])).toBe('Oi! Você disse: **Voltei** & <nada mais>');
  });

  it("hands the conversation back to Chatwoot's bot queue (pending) when the console hands the session back", async () => {
    await deliver(messageCreated(++messageId, 107, 'quero falar com um humano'));
    const toggles = () => chatwoot.to(`${conversationPath(107)}/toggle_status`);
    await eventually(async () => toggles().length === 1);
    const session = await s.stack.prisma.session.findFirstOrThrow({ where: { channelId, externalKey: '107' } });
    expect(session.status).toBe('handed_off');
    const back = await request(s.stack, s.owner, 'POST', `/v1/admin/sessions/${session.id}/hand-back`);
    expect(back.status).toBe(200);
    const [, pending] = await eventually(async () => toggles().length === 2 && toggles());
    expect(pending.body).toEqual({ status: 'pending' });
  });
});
