import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createUser } from '../integration/admin/support/admin-fixtures';
import { FakePlatform } from '../integration/channels/support/fake-platform';
import { startChannelsStack, type ChannelsStack } from '../integration/channels/support/channels-stack';
import { choose, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';

// The platform channels in the console (docs/channels.md): a tenant owner creates one channel
// of each kind, the dialog after create shows the inbound webhook URL (and WhatsApp's verify
// token), and the edit page never shows a credential again: its password fields start empty
// and the API's answer says only hasSecrets. The channels stack runs an API and a worker (the
// worker registers Telegram's webhook) allowed to call 127.0.0.1, where a fake Bot API listens.
// Screenshots of the filled form under each dialog go to docs/screenshots/channel-<kind>.png.

jest.setTimeout(120_000);

const suite = useConsoleSuite({ screenshots: true });

interface KindCase {
  kind: 'telegram' | 'whatsapp' | 'slack' | 'chatwoot';
  /** The Kind select's option. */
  option: string;
  name: string;
  /** Settings by their field label (the defaults of the others stay). */
  settings: Record<string, string>;
  /** Credentials by their field label. */
  secrets: Record<string, string>;
}

const CASES = (botApi: string): KindCase[] => [
  {
    kind: 'telegram',
    option: 'Telegram',
    name: 'Telegram do hotel',
    settings: { 'Bot API root': botApi },
    secrets: { 'Bot token': '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' },
  },
  {
    kind: 'whatsapp',
    option: 'WhatsApp (Cloud API)',
    name: 'WhatsApp do hotel',
    settings: { 'Phone number id': '106540352242922' },
    secrets: { 'Access token': 'EAAGm0PX4ZCpsBAFakeAccessToken', 'App secret': 'f3a9c0d1e2b4a5c6' },
  },
  {
    kind: 'slack',
    option: 'Slack',
    name: 'Slack do hotel',
    settings: {},
    secrets: { 'Bot token': 'xoxb-1111-2222-FakeSlackBotToken', 'Signing secret': '8f742231b10e8888abcd9900aa85a5ff' },
  },
  {
    kind: 'chatwoot',
    option: 'Chatwoot (agent bot)',
    name: 'Chatwoot do hotel',
    settings: { 'Chatwoot URL': 'https://chat.hotel.example.test', 'Account id': '7' },
    secrets: { 'Agent bot access token': 'cw-agent-bot-FakeToken123' },
  },
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form field by its label; required ones carry " *" after it. */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escapeRe(label)}\\s*\\*?$`));

describe('platform channels in the console', () => {
  const botApi = new FakePlatform(() => ({ status: 200, body: { ok: true, result: true } }));
  let s: ChannelsStack;

  beforeAll(async () => {
    await botApi.start();
    s = await startChannelsStack();
  }, 120_000);

  afterAll(async () => {
    await s?.stack.stop();
    await botApi.stop();
  });

  it('creates a channel of each kind, shows its webhook URL once, and never shows its credentials again', async () => {
    const owner = await createUser(s.stack.prisma, 'owner', s.fx.tenant.id);
    const { page, close } = await openConsole(suite.browser, owner.email, { baseUrl: s.stack.apiUrl, failureName: 'channel-adapters' });
    try {
      for (const c of CASES(botApi.url)) {
        await openList(page, 'Channels');
        await page.getByRole('link', { name: 'Create' }).click();
        await choose(page, page, 'Kind', c.option);
        await field(page, 'Name').fill(c.name);
        await choose(page, page, /^Agent/, s.fx.agent.name);
        for (const [label, value] of Object.entries(c.settings)) await field(page, label).fill(value);
        for (const [label, value] of Object.entries(c.secrets)) await field(page, label).fill(value);

        const createdAnswer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/admin/channels');
        await page.getByRole('button', { name: 'Save' }).click();
        const createdRes = await createdAnswer;
        expect(createdRes.status()).toBe(201);
        const created = (await createdRes.json()) as { id: string; kind: string; platform: { inboundUrl: string; webhookRegistered: boolean; verifyToken?: string } };
        expect(created.kind).toBe(c.kind);

        // The dialog: the URL to paste (Chatwoot's carries its secret), WhatsApp's verify token.
        const dialog = page.getByRole('dialog', { name: 'Connect the platform' });
        await dialog.waitFor();
        const url = await dialog.getByTestId('inbound-url').inputValue();
        expect(url).toBe(created.platform.inboundUrl);
        expect(url.startsWith(`https://bots.example.test/v1/channels/${c.kind}/${created.id}`)).toBe(true);
        if (c.kind === 'chatwoot') expect(url).toMatch(/\?secret=[^&]{16,}$/);
        if (c.kind === 'whatsapp') {
          expect(created.platform.verifyToken).toMatch(/^\S{16,}$/);
          await expect(dialog.getByTestId('verify-token').inputValue()).resolves.toBe(created.platform.verifyToken);
        } else {
          await expect(dialog.getByTestId('verify-token').count()).resolves.toBe(0);
        }
        if (c.kind === 'telegram') {
          await dialog.getByTestId('webhook-registered').waitFor();
          const [set] = botApi.to(`/bot${c.secrets['Bot token']}/setWebhook`);
          expect((set.body as { url: string }).url).toBe(url);
        } else {
          await expect(dialog.getByTestId('webhook-registered').count()).resolves.toBe(0);
        }
        // The dialog fades in: a screenshot before its transition ends shows it half transparent.
        // (A string: this project's TypeScript has no DOM types.)
        await page.evaluate('Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))).then(() => true)');
        await page.screenshot({ path: join(SCREENSHOTS, `channel-${c.kind}.png`) });

        // Done opens the edit page: settings shown, credentials not, in the page or the API's answer.
        const readAnswer = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === `/v1/admin/channels/${created.id}`);
        await dialog.getByRole('button', { name: 'Done' }).click();
        const read = (await (await readAnswer).json()) as Record<string, unknown>;
        expect(read.hasSecrets).toBe(true);
        expect(read).not.toHaveProperty('secrets');
        expect(read).not.toHaveProperty('secretsEncrypted');
        const readText = JSON.stringify(read);
        for (const secret of Object.values(c.secrets)) expect(readText).not.toContain(secret);
        if (created.platform.verifyToken) expect(readText).not.toContain(created.platform.verifyToken);

        await page.waitForURL((u) => u.hash.startsWith(`#/channels/${encodeURIComponent(created.id)}`));
        await expect(field(page, 'Name').inputValue()).resolves.toBe(c.name);
        for (const [label, value] of Object.entries(c.settings)) await expect(field(page, label).inputValue()).resolves.toBe(value);
        for (const label of Object.keys(c.secrets)) {
          const input = field(page, label);
          await expect(input.getAttribute('type')).resolves.toBe('password');
          await expect(input.inputValue()).resolves.toBe('');
        }
        const html = await page.content();
        for (const secret of Object.values(c.secrets)) expect(html).not.toContain(secret);
      }
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  }, 120_000);
});
