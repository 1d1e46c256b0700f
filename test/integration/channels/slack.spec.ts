import { createHmac } from 'node:crypto';
import { eventually } from '../worker/support/private-api';
import { request } from '../ops/support/ops-stack';
import { FakePlatform, type PlatformHit } from './support/fake-platform';
import { postRaw, startChannelsStack, type ChannelsStack } from './support/channels-stack';
import { botMessage, directMessage, editedMessage, imageMessage, mention, urlVerification } from './fixtures/slack';

// Slack end to end: url_verification, Events API requests signed v0 with a 5-minute window,
// replies through @slack/web-api's chat.postMessage at a fake Slack API in mrkdwn, split under
// 4000, a 429 Retry-After waited out, and the bot's own messages ignored.

jest.setTimeout(240_000);

const BOT_TOKEN = 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5'.replace(/[^0-9a-f]/g, '0');

describe('Slack channel', () => {
  let ts = 0;
  const slack: FakePlatform = new FakePlatform(() => ({ status: 200, body: { ok: true, channel: 'D024BE91L', ts: `1503435956.${String(++ts).padStart(6, '0')}` } }));
  let s: ChannelsStack;
  let channelId: string;
  let n = 0;
  const eventId = () => `Ev${Date.now().toString(36).toUpperCase()}${++n}`;

  beforeAll(async () => {
    await slack.start();
    s = await startChannelsStack();
  });

  afterAll(async () => {
    await s?.stack.stop();
    await slack.stop();
  });

  /** chat.postMessage calls to `channel`, their form fields read back. */
  const posts = (channel: string) => slack.to('/api/chat.postMessage').filter((h) => form(h).get('channel') === channel);
  const form = (h: PlatformHit) => new URLSearchParams(typeof h.body === 'string' ? h.body : '');
  const textOf = (h: PlatformHit) => form(h).get('text') ?? '';
  const sign = (raw: string, at = Math.floor(Date.now() / 1000), secret = SIGNING_SECRET) => ({
    'x-slack-request-timestamp': String(at),
    'x-slack-signature': 'v0=' + createHmac('sha256', secret).update(`v0:${at}:${raw}`).digest('hex'),
  });
  const deliver = (payload: unknown, headers?: Record<string, string>) => {
    const raw = JSON.stringify(payload);
    return postRaw(s.stack.apiUrl, `/v1/channels/slack/${channelId}`, raw, headers ?? sign(raw));
  };

  it('creates the channel with write-only credentials', async () => {
    const res = await request<Record<string, unknown>>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id,
      name: 'Slack do hotel',
      kind: 'slack',
      settings: { apiRoot: slack.url },
      secrets: { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET },
    });
    expect(res.status).toBe(201);
    channelId = res.body.id as string;
    expect(res.body.platform).toEqual({ inboundUrl: `https://bots.example.test/v1/channels/slack/${channelId}`, webhookRegistered: false });
    for (const secret of [BOT_TOKEN, SIGNING_SECRET]) expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it('answers url_verification with its challenge, signed', async () => {
    const res = await deliver(urlVerification);
    expect(res).toEqual({ status: 200, body: { challenge: urlVerification.challenge } });
  });

  it('answers a direct message through chat.postMessage in mrkdwn', async () => {
    expect((await deliver(directMessage(eventId(), 'D0000000001', 'Olá'))).status).toBe(200);
    const [sent] = await eventually(async () => posts('D0000000001').length === 1 && posts('D0000000001'));
    expect(sent.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(textOf(sent)).toBe('Oi! Você disse: *Olá* &amp; &lt;nada mais&gt;');
    expect(form(sent).get('mrkdwn')).toBe('true');
  });

  it('answers a mention in a channel with the mention stripped', async () => {
    await deliver(mention(eventId(), 'C0000000002', 'Bom dia'));
    const [sent] = await eventually(async () => posts('C0000000002').length === 1 && posts('C0000000002'));
    expect(textOf(sent)).toBe('Oi! Você disse: *Bom dia* &amp; &lt;nada mais&gt;');
  });

  it('answers 401 to a wrong signature or a timestamp older than 5 minutes, and stores nothing', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const payload = directMessage(eventId(), 'D0000000003', 'Olá');
    const raw = JSON.stringify(payload);
    const wrong = await deliver(payload, sign(raw, undefined, 'f'.repeat(32)));
    expect([wrong.status, (wrong.body.error as { code: string }).code]).toEqual([401, 'invalid-signature']);
    const old = await deliver(payload, sign(raw, Math.floor(Date.now() / 1000) - 301));
    expect(old.status).toBe(401);
    expect((old.body.error as { message: string }).message).toContain('5 minutes');
    expect((await deliver(payload, {})).status).toBe(401);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it("stores an event retried three times once and replies once; ignores the bot's own messages and edits", async () => {
    const payload = directMessage(eventId(), 'D0000000004', 'Bom dia');
    for (let i = 0; i < 3; i++) expect((await deliver(payload)).status).toBe(200);
    await eventually(async () => posts('D0000000004').length === 1);
    expect((await deliver(botMessage(eventId(), 'D0000000004'))).body).toEqual({ ok: true, stored: 0, ignored: "the bot's own message" });
    expect((await deliver(editedMessage(eventId(), 'D0000000004'))).body).toEqual({ ok: true, stored: 0, ignored: 'message subtype message_changed' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(posts('D0000000004')).toHaveLength(1);
  });

  it('splits a long reply in order and waits out a 429 Retry-After', async () => {
    slack.answerNext('/api/chat.postMessage', { status: 429, headers: { 'retry-after': '2' }, body: { ok: false, error: 'ratelimited' } });
    await deliver(directMessage(eventId(), 'D0000000005', 'me conte algo longo'));
    const hits = await eventually(async () => posts('D0000000005').length === 5 && posts('D0000000005'));
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(2000);
    expect(hits.slice(1).map((h) => textOf(h).slice(0, 7))).toEqual(['Parte 1', 'Parte 2', 'Parte 3', 'Parte 4']);
    for (const h of hits) expect(textOf(h).length).toBeLessThanOrEqual(4000);
  });

  it('answers a shared image from its description, keeping the file reference', async () => {
    const id = eventId();
    await deliver(imageMessage(id, 'D0000000006', 'Olha o quarto'));
    const [sent] = await eventually(async () => posts('D0000000006').length === 1 && posts('D0000000006'));
    expect(textOf(sent)).toBe('Recebi sua foto: [image] Olha o quarto');
    const stored = await s.stack.prisma.message.findFirstOrThrow({ where: { channelId, externalId: id } });
    expect(stored.media).toMatchObject({ type: 'file', fileId: 'F0123ABCDEF', mimeType: 'image/png' });
  });

  it('stops answering once the conversation is handed to a person', async () => {
    await deliver(directMessage(eventId(), 'D0000000007', 'quero falar com um humano'));
    await eventually(async () => posts('D0000000007').length === 1);
    expect(textOf(posts('D0000000007')[0])).toBe('Vou chamar um atendente.');
    const id = eventId();
    await deliver(directMessage(id, 'D0000000007', 'Olá?'));
    await eventually(async () => (await s.stack.prisma.message.findFirst({ where: { channelId, externalId: id, status: 'answered' } })) !== null);
    await new Promise((r) => setTimeout(r, 1000));
    expect(posts('D0000000007')).toHaveLength(1);
  });
});
