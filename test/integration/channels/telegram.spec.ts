import { DEFAULT_FALLBACK_MESSAGES } from '@switchboard/agent-config';
import { QUOTA_CACHE_MS } from '@switchboard/db';
import { eventually } from '../worker/support/private-api';
import { request, tokenFor } from '../ops/support/ops-stack';
import { FakePlatform, type PlatformHit } from './support/fake-platform';
import { postRaw, startChannelsStack, type ChannelsStack } from './support/channels-stack';
import { editedUpdate, photoUpdate, textUpdate, voiceUpdate } from './fixtures/telegram';

// Telegram end to end: the console creates the channel (setWebhook with a secret token at a
// fake Bot API), updates come in signed with X-Telegram-Bot-Api-Secret-Token, and the worker
// answers through sendMessage in HTML, split under 4096 characters, waiting out a 429's
// retry_after, and not at all once the session is handed to a person.

jest.setTimeout(240_000);

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });

describe('Telegram channel', () => {
  let sent = 0;
  const telegram: FakePlatform = new FakePlatform((hit) => (hit.path.endsWith('/sendMessage') ? ok({ message_id: ++sent, date: 1, chat: { id: 1, type: 'private' } }) : ok(true)));
  let s: ChannelsStack;
  let channelId: string;
  let secretToken: string;
  let updateId = 500_000;

  beforeAll(async () => {
    await telegram.start();
    s = await startChannelsStack();
  });

  afterAll(async () => {
    await s?.stack.stop();
    await telegram.stop();
  });

  const sends = (chatId: number) => telegram.to('/sendMessage').filter((h) => (h.body as { chat_id: string }).chat_id === String(chatId));
  const textOf = (h: PlatformHit) => (h.body as { text: string }).text;
  const deliver = (update: unknown, token = secretToken) =>
    postRaw(s.stack.apiUrl, `/v1/channels/telegram/${channelId}`, JSON.stringify(update), { 'x-telegram-bot-api-secret-token': token });

  it('creates the channel: setWebhook with a secret token, credentials never returned', async () => {
    const res = await request<Record<string, unknown>>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id,
      name: 'Telegram do hotel',
      kind: 'telegram',
      settings: { apiRoot: telegram.url },
      secrets: { botToken: BOT_TOKEN },
    });
    expect(res.status).toBe(201);
    channelId = res.body.id as string;
    expect(res.body).toMatchObject({ kind: 'telegram', hasSecrets: true, webhookUrl: null, settings: { apiRoot: telegram.url } });
    expect(res.body.platform).toEqual({ inboundUrl: `https://bots.example.test/v1/channels/telegram/${channelId}`, webhookRegistered: true });
    expect(JSON.stringify(res.body)).not.toContain(BOT_TOKEN);

    const [set] = telegram.to(`/bot${BOT_TOKEN}/setWebhook`);
    const body = set.body as { url: string; secret_token: string; allowed_updates: string[] };
    expect(body.url).toBe(`https://bots.example.test/v1/channels/telegram/${channelId}`);
    expect(body.secret_token).toMatch(/^[A-Za-z0-9_-]{40,256}$/);
    secretToken = body.secret_token;

    const read = await request<Record<string, unknown>>(s.stack, s.owner, 'GET', `/v1/admin/channels/${channelId}`);
    expect(JSON.stringify(read.body)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(read.body)).not.toContain(secretToken);
  });

  it('refuses a bad bot token with 400 at secrets.botToken, and a platform that refuses setWebhook leaves no channel', async () => {
    const bad = await request<{ error: { code: string; details: { path: string }[] } }>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id, name: 'x', kind: 'telegram', settings: { apiRoot: telegram.url }, secrets: { botToken: 'nope' },
    });
    expect([bad.status, bad.body.error.code, bad.body.error.details[0].path]).toEqual([400, 'validation-failed', 'secrets.botToken']);

    telegram.answerNext('/setWebhook', { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    const before = await s.stack.prisma.channel.count({ where: { tenantId: s.fx.tenant.id } });
    const refused = await request<{ error: { code: string; message: string } }>(s.stack, s.owner, 'POST', '/v1/admin/channels', {
      agentId: s.fx.agent.id, name: 'x', kind: 'telegram', settings: { apiRoot: telegram.url }, secrets: { botToken: BOT_TOKEN },
    });
    expect([refused.status, refused.body.error.code]).toEqual([502, 'telegram-setup-failed']);
    expect(refused.body.error.message).toContain('Unauthorized');
    expect(await s.stack.prisma.channel.count({ where: { tenantId: s.fx.tenant.id } })).toBe(before);
  });

  it('answers a signed update through sendMessage in HTML, escaped', async () => {
    const res = await deliver(textUpdate(++updateId, 1001, 'Olá'));
    expect(res.status).toBe(200);
    const [sent] = await eventually(async () => sends(1001).length === 1 && sends(1001));
    expect(sent.body).toMatchObject({ chat_id: '1001', parse_mode: 'HTML', text: 'Oi! Você disse: <b>Olá</b> &amp; &lt;nada mais&gt;' });
    const stored = await s.stack.prisma.message.findFirstOrThrow({ where: { channelId, externalId: String(updateId) } });
    expect(stored.text).toBe('Olá');
  });

  it('answers 403 tenant-suspended while the tenant is suspended and stores nothing; reactivated, it answers again', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    await s.stack.prisma.tenant.update({ where: { id: s.fx.tenant.id }, data: { status: 'suspended' } });
    // Changed behind the API's back: its status cache (TENANT_STATUS_CACHE_MS) notices within 5 s.
    await new Promise((r) => setTimeout(r, 5_200));
    const refused = await deliver(textUpdate(++updateId, 1090, 'Olá'));
    expect([refused.status, (refused.body.error as { code: string }).code]).toEqual([403, 'tenant-suspended']);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);

    await s.stack.prisma.tenant.update({ where: { id: s.fx.tenant.id }, data: { status: 'active' } });
    await new Promise((r) => setTimeout(r, 5_200));
    expect((await deliver(textUpdate(++updateId, 1090, 'Olá de novo'))).status).toBe(200);
    await eventually(async () => sends(1090).length === 1);
  });

  it('answers 401 to a wrong or missing secret token and stores nothing', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const wrong = await deliver(textUpdate(++updateId, 1002, 'Olá'), 'not-the-token');
    expect([wrong.status, (wrong.body.error as { code: string }).code]).toEqual([401, 'invalid-signature']);
    const missing = await postRaw(s.stack.apiUrl, `/v1/channels/telegram/${channelId}`, JSON.stringify(textUpdate(updateId, 1002, 'Olá')), {});
    expect(missing.status).toBe(401);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it('answers 404 channel-not-found for an unknown channel or kind', async () => {
    for (const path of ['/v1/channels/telegram/3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52', '/v1/channels/telegram/nope', `/v1/channels/fax/${channelId}`, `/v1/channels/api/${s.fx.channel.id}`]) {
      const res = await postRaw(s.stack.apiUrl, path, '{}', { 'x-telegram-bot-api-secret-token': secretToken });
      expect([path, res.status, (res.body.error as { code: string }).code]).toEqual([path, 404, 'channel-not-found']);
    }
  });

  it('stores an update delivered three times once and replies once', async () => {
    const update = textUpdate(++updateId, 1003, 'Bom dia');
    for (let i = 0; i < 3; i++) expect((await deliver(update)).status).toBe(200);
    await eventually(async () => sends(1003).length === 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sends(1003)).toHaveLength(1);
    expect(await s.stack.prisma.message.count({ where: { channelId, externalId: String(updateId) } })).toBe(1);
  });

  it('acknowledges edits and unknown shapes without storing them', async () => {
    const before = await s.stack.prisma.message.count({ where: { channelId } });
    const edited = await deliver(editedUpdate(++updateId, 1004));
    expect(edited).toEqual({ status: 200, body: { ok: true, stored: 0, ignored: expect.stringContaining('edited_message') } });
    const odd = await deliver({ something: 'else' });
    expect(odd.status).toBe(200);
    expect(await s.stack.prisma.message.count({ where: { channelId } })).toBe(before);
  });

  it('splits a reply over 4096 characters at paragraph breaks, in order', async () => {
    await deliver(textUpdate(++updateId, 1005, 'me conte algo longo'));
    const parts = await eventually(async () => sends(1005).length === 4 && sends(1005));
    expect(parts.map((p) => textOf(p).slice(0, 7))).toEqual(['Parte 1', 'Parte 2', 'Parte 3', 'Parte 4']);
    for (const p of parts) expect(textOf(p).length).toBeLessThanOrEqual(4096);
    // The fake records a part before it answers: the worker marks the delivery a moment later.
    const delivery = await eventually(() => s.stack.prisma.delivery.findFirst({ where: { channelId, status: 'delivered', message: { session: { externalKey: '1005' } } } }));
    expect(delivery.partsSent).toBe(4);
  });

  it('waits out retry_after on a 429 and then delivers once', async () => {
    telegram.answerNext('/sendMessage', { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 2', parameters: { retry_after: 2 } } });
    await deliver(textUpdate(++updateId, 1006, 'Oi'));
    const attempts = await eventually(async () => sends(1006).length === 2 && sends(1006));
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(2000);
    const delivery = await eventually(() => s.stack.prisma.delivery.findFirst({ where: { channelId, status: 'delivered', message: { session: { externalKey: '1006' } } } }));
    expect(delivery.attempts).toBe(2);
  });

  it('answers a photo from its description and keeps the file id on the message', async () => {
    await deliver(photoUpdate(++updateId, 1007, 'Olha o quarto'));
    const [sent] = await eventually(async () => sends(1007).length === 1 && sends(1007));
    expect(textOf(sent)).toBe('Recebi sua foto: [image] Olha o quarto');
    const stored = await s.stack.prisma.message.findFirstOrThrow({ where: { channelId, externalId: String(updateId) } });
    expect(stored.media).toEqual({ type: 'image', fileId: 'AgACAgQAAxkBAAIBc2large', width: 1280, height: 960 });

    await deliver(voiceUpdate(++updateId, 1007));
    await eventually(async () => sends(1007).length === 2);
    expect(textOf(sends(1007)[1])).toBe('Recebi seu áudio.');
  });

  it('stops answering once the conversation is handed to a person', async () => {
    await deliver(textUpdate(++updateId, 1008, 'quero falar com um humano'));
    const [said] = await eventually(async () => sends(1008).length === 1 && sends(1008));
    expect(textOf(said)).toBe('Vou chamar um atendente.');
    const session = await s.stack.prisma.session.findFirstOrThrow({ where: { channelId, externalKey: '1008' } });
    expect(session.status).toBe('handed_off');

    await deliver(textUpdate(++updateId, 1008, 'Olá?'));
    await eventually(async () => (await s.stack.prisma.message.findFirst({ where: { channelId, externalId: String(updateId), status: 'answered' } })) !== null);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sends(1008)).toHaveLength(1);
  });

  it("sends an operator's reply from the console's inbox through sendMessage, like the agent's", async () => {
    const session = await s.stack.prisma.session.findFirstOrThrow({ where: { channelId, externalKey: '1008' } });
    const operator = await tokenFor(s.stack, 'operator', s.fx.tenant.id);
    const sent = await request<{ delivered: string }>(s.stack, operator, 'POST', `/v1/admin/inbox/${session.id}/replies`, { text: 'Oi, sou a Ana <equipe>.' });
    expect([sent.status, sent.body.delivered]).toEqual([201, 'queued']);
    const [, human] = await eventually(async () => sends(1008).length === 2 && sends(1008));
    expect(textOf(human)).toBe('Oi, sou a Ana &lt;equipe&gt;.');
    await new Promise((r) => setTimeout(r, 500));
    expect(sends(1008)).toHaveLength(2);
  });

  it("answers with the agent's fallback message, once, when the tenant's monthly budget is spent", async () => {
    const prisma = s.stack.prisma;
    const tenantId = s.fx.tenant.id;
    await prisma.usageDaily.updateMany({ where: { tenantId }, data: { costMicros: 5n } });
    await prisma.tenant.update({ where: { id: tenantId }, data: { monthlyBudgetMicros: 5n } });
    try {
      await new Promise((r) => setTimeout(r, QUOTA_CACHE_MS + 200)); // the API's cached verdict expires
      const update = textUpdate(++updateId, 1009, 'ainda tem quarto?');
      for (let i = 0; i < 3; i++) expect((await deliver(update)).status).toBe(200);
      const [said] = await eventually(async () => sends(1009).length === 1 && sends(1009));
      expect(textOf(said)).toBe(DEFAULT_FALLBACK_MESSAGES.en);
      await new Promise((r) => setTimeout(r, 1500));
      expect(sends(1009)).toHaveLength(1);
      const stored = await prisma.message.findFirstOrThrow({ where: { channelId, externalId: String(updateId) } });
      expect(stored).toMatchObject({ status: 'failed', kind: 'quota-exceeded' });
      expect(await prisma.turn.count({ where: { sessionId: stored.sessionId, createdAt: { gte: stored.createdAt } } })).toBe(0);
    } finally {
      await prisma.tenant.update({ where: { id: tenantId }, data: { monthlyBudgetMicros: null } });
    }
  });

  it('removes the webhook (deleteWebhook) when the channel is deleted', async () => {
    const res = await request<Record<string, unknown>>(s.stack, s.owner, 'DELETE', `/v1/admin/channels/${channelId}`);
    expect(res.status).toBe(200);
    expect(res.body.platform).toEqual({ ok: true });
    expect(telegram.to(`/bot${BOT_TOKEN}/deleteWebhook`)).toHaveLength(1);
  });
});
