import { join } from 'node:path';
import type { AgentConfig } from '@switchboard/agent-config';
import { createUser } from '../integration/admin/support/admin-fixtures';
import { request, startOpsStack, tokenFor, type OpsStack } from '../integration/ops/support/ops-stack';
import { WebhookReceiver } from '../integration/ops/support/webhook-receiver';
import { eventually } from '../integration/worker/support/private-api';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../support/fixtures';
import { notified, signIn } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';

// Issue 22's inbox acceptance in Chromium, against a real API, worker and webhook receiver: the
// agent hands a customer to a person; an operator finds the conversation in the inbox with its
// unread count, takes it over (the agent stays silent), replies — the customer's channel (its
// webhook) receives the reply — writes a note the customer never gets, hands back, and the agent
// answers the next message. The session page shows each turn under the message it answered.

jest.setTimeout(300_000);

const suite = useConsoleSuite({ screenshots: true });

/** An agent whose model hands the conversation to a person when asked for one. */
const deskConfig: AgentConfig = {
  provider: {
    kind: 'scripted',
    model: 'desk-script',
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

interface Posted {
  sessionId: string;
  replies?: { id: string; text: string }[];
}

interface Hook {
  type: string;
  sessionId: string;
  text?: string;
}

describe('the inbox in a browser', () => {
  const receiver = new WebhookReceiver();
  let stack: OpsStack;
  let fx: TenantFixture;

  beforeAll(async () => {
    await receiver.start();
    stack = await startOpsStack({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200', DELIVERY_BACKOFF_MS: '50' });
    fx = await createTenantFixture(stack.prisma, { agentConfig: deskConfig });
    const owner = await tokenFor(stack, 'owner', fx.tenant.id);
    expect((await request(stack, owner, 'PUT', `/v1/admin/channels/${fx.channel.id}`, { webhookUrl: `${receiver.url}/hooks` })).status).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  });

  const say = async (session: string, text: string): Promise<Posted> => {
    const res = await request<Posted>(stack, fx.apiKey, 'POST', '/v1/messages?wait=30', { session, text });
    expect(res.status).toBe(200);
    return res.body;
  };
  const hooks = (sessionId: string): Hook[] =>
    receiver
      .hits('/hooks')
      .filter((h) => h.answered === 200)
      .map((h) => JSON.parse(h.body) as Hook)
      .filter((b) => b.sessionId === sessionId);

  it('takes a handed-off conversation over, replies through the channel, notes, hands back, and the agent answers again', async () => {
    const key = `wa-5541-${uniqueSuffix()}`;
    expect((await say(key, 'Oi')).replies?.map((r) => r.text)).toEqual(['Oi! Como posso ajudar?']);
    const handedOff = await say(key, 'Quero falar com um humano');
    expect(handedOff.replies?.map((r) => r.text)).toEqual(['Vou chamar um atendente.']);
    const sessionId = handedOff.sessionId;

    const operator = await createUser(stack.prisma, 'operator', fx.tenant.id);
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    try {
      await signIn(page, operator.email, stack.apiUrl);
      await page.getByTestId('stat-sessions').waitFor();

      // The inbox: the conversation waits for a person, one unread message (the request for one).
      await page.getByRole('menuitem', { name: /Inbox/ }).click();
      const card = page.getByTestId('inbox-item').filter({ hasText: key });
      await card.getByText('Waiting', { exact: true }).waitFor();
      await expect(card.getByTestId('inbox-unread').textContent()).resolves.toBe('1');
      await page.screenshot({ path: join(SCREENSHOTS, 'inbox.png') });

      await card.click();
      const conversation = page.getByTestId('conversation-page');
      await conversation.getByTestId('message-inbound').first().waitFor();
      // Each customer message with the turn that answered it right under it, with its model.
      await expect(conversation.getByTestId('inline-turn').count()).resolves.toBe(2);
      const firstTurn = await stack.prisma.turn.findFirstOrThrow({ where: { sessionId }, orderBy: { createdAt: 'asc' } });
      await expect(conversation.getByTestId('inline-turn').first().textContent()).resolves.toContain(`${firstTurn.provider} / ${firstTurn.model}`);

      await page.getByTestId('take-over').click();
      await notified(page, 'You have the conversation');
      await page.getByTestId('conversation-status').filter({ hasText: 'Taken over by you' }).waitFor();

      // The customer writes while a person has the conversation: the agent stays silent, the console shows it.
      const during = await say(key, 'Alô? Tem alguém?');
      expect(during.replies ?? []).toEqual([]);
      await conversation.getByText('Alô? Tem alguém?').waitFor();
      await conversation.getByTestId('inline-turn').filter({ hasText: 'agent silent' }).waitFor();

      // The reply goes to the customer through the channel's webhook.
      await page.getByLabel('Message').fill('Olá, aqui é a Ana. Como posso ajudar?');
      await page.getByTestId('send-reply').click();
      await notified(page, 'Reply sent to the customer');
      await conversation.getByTestId('message-outbound').filter({ hasText: 'aqui é a Ana' }).getByText('Operator', { exact: false }).waitFor();
      await eventually(async () => hooks(sessionId).some((h) => h.type === 'message.reply' && h.text === 'Olá, aqui é a Ana. Como posso ajudar?'));

      // An internal note: shown to the desk, never sent.
      await page.getByLabel('Message').fill('Cliente VIP: oferecer upgrade');
      await page.getByTestId('add-note').click();
      await conversation.getByTestId('conversation-note').filter({ hasText: 'Cliente VIP' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'inbox-conversation.png'), fullPage: true });

      // Hand back: the agent answers the next message, and the conversation leaves the inbox.
      await page.getByTestId('inbox-hand-back').click();
      await notified(page, 'Handed back');
      await page.getByTestId('conversation-status').filter({ hasText: 'Agent answering' }).waitFor();
      expect((await say(key, 'Oi de novo')).replies?.map((r) => r.text)).toEqual(['Oi! Como posso ajudar?']);
      await page.getByRole('link', { name: 'Back to inbox' }).click();
      await page.getByTestId('inbox').waitFor();
      await page.getByText('No conversation is waiting for a person.').waitFor();

      // What the customer's channel received: the hand-off, the operator's reply, the hand-back — never the note.
      await eventually(async () => hooks(sessionId).some((h) => h.type === 'session.handed_back'));
      const texts = hooks(sessionId).map((h) => h.text ?? h.type);
      expect(texts).toEqual(
        expect.arrayContaining(['Vou chamar um atendente.', 'session.handed_off', 'Olá, aqui é a Ana. Como posso ajudar?', 'session.handed_back']),
      );
      expect(receiver.received.some((h) => h.body.includes('VIP'))).toBe(false);

      // The session page: turns inline under the messages they answered, the operator's reply and the note in place.
      await page.goto(`${stack.apiUrl}/admin/#/sessions/${sessionId}/show`);
      const transcript = page.getByTestId('transcript');
      await transcript.getByText('Oi de novo').waitFor();
      await expect(transcript.getByTestId('inline-turn').count()).resolves.toBe(4);
      await transcript.getByTestId('conversation-note').waitFor();
    } catch (err) {
      await page.screenshot({ path: `.tmp/inbox-failure-${Date.now()}.png`, fullPage: true }).catch(() => undefined);
      throw err;
    } finally {
      await context.close();
    }
  });
});

