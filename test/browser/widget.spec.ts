import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_MASTER_KEY } from '@switchboard/config';
import { DEFAULT_FALLBACK_MESSAGES } from '@switchboard/agent-config';
import { encryptSecret, parseMasterKey, QUOTA_CACHE_MS, recordTurnUsage, SECRET_CONTEXTS } from '@switchboard/db';
import type { BrowserContext, Page } from 'playwright-core';
import { createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { eventually, startPrivateApi, type PrivateApi } from '../integration/worker/support/private-api';
import { createWidgetChannel, ensureWidgetBuilt } from '../support/widget';
import type { WorkerProcess } from '../support/worker-process';
import { choose, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { startWorkerPatiently } from './support/worker';
import { startHostSite, startProxy, startStreamingModel, type HostSite, type NetworkProxy, type StreamingModel } from './support/widget-world';

// The web widget on a customer's page, in headless Chromium: the page is on another origin than
// the API (localhost vs 127.0.0.1), under a strict CSP and hostile CSS; the model streams slowly
// through a real worker; the browser reaches the API through a proxy the test can cut.

jest.setTimeout(300_000);

const en = JSON.parse(readFileSync(join(__dirname, '..', '..', 'apps', 'widget', 'src', 'locales', 'en.json'), 'utf8')) as { panel: Record<string, string> };
const REPLIES: Record<string, string> = {
  bread: 'Yes! **Sourdough** is baked daily:\n- plain loaf\n- with olives\n\nOrder at https://example.com/bread',
  saturday: 'We open on Saturdays from eight in the morning until one in the afternoon, and on Sundays from eight until noon, every week of the year except Christmas Day.',
  price: 'A plain loaf costs twelve reais.',
};
const reply = (text: string) => REPLIES[Object.keys(REPLIES).find((k) => text.toLowerCase().includes(k)) ?? 'price'];

const suite = useConsoleSuite({ screenshots: true });
let api: PrivateApi;
let worker: WorkerProcess;
let model: StreamingModel;
let proxy: NetworkProxy;
let site: HostSite;
let elsewhere: HostSite;
let widget: { id: string; publicId: string };
let tenantId: string;

beforeAll(async () => {
  ensureWidgetBuilt();
  model = await startStreamingModel(reply, 120);
  api = await startPrivateApi();
  proxy = await startProxy(Number(new URL(api.baseUrl).port));
  const snippet = () => `<script src="${proxy.url}/widget.js" data-widget="${widget.publicId}" data-color="#7c2d12" async></script>`;
  site = await startHostSite(snippet, proxy.url);
  elsewhere = await startHostSite(snippet, proxy.url);

  const t = await createTenant(suite.db);
  tenantId = t.tenant.id;
  const key = 'sk-widget-test-key-0001';
  const credential = await suite.db.providerCredential.create({
    data: {
      tenantId,
      name: 'local model',
      kind: 'openai_compatible',
      baseURL: model.baseURL,
      secretEncrypted: encryptSecret(key, parseMasterKey(process.env.MASTER_KEY || DEV_MASTER_KEY), SECRET_CONTEXTS.providerCredential(tenantId)),
      secretLast4: key.slice(-4),
    },
  });
  const config = { provider: { kind: 'openai-compatible', model: 'local-model', credentialId: credential.id }, fields: {}, flows: [], tools: [] };
  await suite.db.agent.update({ where: { id: t.agent.id }, data: { name: 'Baker', config, publishedVersion: 1 } });
  await suite.db.agentVersion.create({ data: { tenantId, agentId: t.agent.id, version: 1, config } });
  widget = await createWidgetChannel(suite.db, tenantId, t.agent.id, {
    allowedOrigins: [site.origin],
    title: 'Padaria Central',
    greeting: 'Hi! How can we help?',
    color: '#7c2d12',
  });
  worker = await startWorkerPatiently({ QUEUE_PREFIX: api.queuePrefix, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  await Promise.all([proxy?.close(), site?.close(), elsewhere?.close(), model?.close()]);
});

const chat = (page: Page) => page.locator('switchboard-chat');
const agentBubbles = (page: Page) => chat(page).locator('.msg.agent:not(.streaming)');

async function visit(context: BrowserContext, origin = site.origin): Promise<{ page: Page; requests: string[]; cspErrors: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const requests: string[] = [];
  const cspErrors: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(`${origin}/`);
  return { page, requests, cspErrors };
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** What has the keyboard focus inside the widget: tag and accessible label. */
function focused(page: Page): Promise<string> {
  // A string: the specs compile without the DOM's types.
  return page.evaluate(`(() => { const a = document.querySelector('switchboard-chat').shadowRoot.activeElement; return a ? a.tagName + ' ' + (a.getAttribute('aria-label') || (a.labels && a.labels[0] && a.labels[0].textContent) || '') : 'none'; })()`);
}

/** The reply to `text`, once it is shown whole (not streaming). */
async function replyShown(page: Page, text: string): Promise<void> {
  await agentBubbles(page).filter({ hasText: text.split('\n')[0].replace(/\*\*/g, '').slice(0, 30) }).first().waitFor();
}

describe('the web widget on a customer’s site', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await suite.browser.newContext({ viewport: { width: 1100, height: 760 } });
  });
  afterAll(() => context?.close());

  it('loads the launcher from the snippet with no other request, under a strict CSP, unstyled by the page', async () => {
    const { page, requests, cspErrors } = await visit(context);
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.waitFor();
    await page.waitForTimeout(500);
    expect(requests.filter((r) => r.includes(proxy.url))).toEqual([`GET ${proxy.url}/widget.js`]);
    // The page's `* { color: #c00 }` and `button { display: none }` do not reach inside.
    const looks = await page.evaluate(
      `(() => { const s = getComputedStyle(document.querySelector('switchboard-chat').shadowRoot.querySelector('.launcher')); return { bg: s.backgroundColor, font: s.fontFamily, display: s.display }; })()`,
    );
    expect(looks).toEqual({ bg: 'rgb(124, 45, 18)', font: expect.not.stringContaining('Comic'), display: 'grid' });
    expect(cspErrors).toEqual([]);
    await page.close();
  });

  it('opens with the focus inside, sends, streams the reply in word by word, renders it as safe rich text, and closes with Esc', async () => {
    const { page, cspErrors } = await visit(context);
    await page.getByRole('button', { name: 'Open chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Padaria Central' });
    await dialog.waitFor();
    await expect(focused(page)).resolves.toBe('TEXTAREA Message');
    await chat(page).getByText('Hi! How can we help?').waitFor();

    await send(page, 'Do you have bread? <img src=x onerror=alert(1)>');
    // Seen while streaming: a part of the reply, before the whole of it.
    const streaming = chat(page).locator('.msg.agent.streaming');
    await streaming.waitFor();
    const partial = (await streaming.textContent()) ?? '';
    await replyShown(page, REPLIES.bread);
    const whole = chat(page).locator('.msg.agent').last();
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan((await whole.textContent())!.length);
    expect(await whole.locator('strong').textContent()).toBe('Sourdough');
    expect(await whole.locator('li').allTextContents()).toEqual(['plain loaf', 'with olives']);
    expect(await whole.locator('a').getAttribute('href')).toBe('https://example.com/bread');
    expect(await whole.locator('a').getAttribute('rel')).toBe('noopener noreferrer nofollow');
    // The visitor's markup is text: no element was made from it.
    const mine = chat(page).locator('.msg.visitor').last();
    expect(await mine.textContent()).toBe('Do you have bread? <img src=x onerror=alert(1)>');
    expect(await mine.locator('img').count()).toBe(0);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(focused(page)).resolves.toBe('BUTTON Open chat');
    expect(cspErrors).toEqual([]);
    await page.close();
  });

  it('shows the history after a reload, in the same conversation', async () => {
    const { page } = await visit(context);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await replyShown(page, REPLIES.bread);
    expect(await chat(page).locator('.msg.visitor').allTextContents()).toEqual(['Do you have bread? <img src=x onerror=alert(1)>']);
    expect(await suite.db.session.count({ where: { channelId: widget.id } })).toBe(1);
    await page.close();
  });

  it('survives the network cut mid-reply: the reply appears once, and a send whose answer was lost is stored once', async () => {
    const { page } = await visit(context);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await replyShown(page, REPLIES.bread);

    await send(page, 'Are you open on Saturday?');
    const streaming = chat(page).locator('.msg.agent.streaming');
    await streaming.waitFor();
    await eventually(async () => ((await streaming.textContent().catch(() => '')) ?? '').split(' ').length >= 4, 30_000);
    proxy.cut();
    await page.waitForTimeout(2500);
    proxy.restore();
    await replyShown(page, REPLIES.saturday);
    await page.waitForTimeout(1000);
    expect(await agentBubbles(page).filter({ hasText: 'We open on Saturdays' }).count()).toBe(1);
    expect(await chat(page).locator('.msg.agent.streaming').count()).toBe(0);

    // The answer to this send is lost on the way back: the widget sends it again with the same id.
    let lost = 0;
    await page.route(`${proxy.url}/v1/widget/*/messages`, async (route) => {
      if (route.request().method() === 'POST' && lost === 0) {
        lost++;
        await route.fetch(); // the API stores it...
        return route.abort('connectionreset'); // ...and the browser never hears back
      }
      return route.continue();
    });
    await send(page, 'What is the price?');
    await replyShown(page, REPLIES.price);
    expect(lost).toBe(1);
    expect(await chat(page).locator('.msg.visitor').filter({ hasText: 'What is the price?' }).count()).toBe(1);

    const stored = await suite.db.message.findMany({ where: { channelId: widget.id }, orderBy: { seq: 'asc' }, select: { direction: true, text: true } });
    expect(stored.map((m) => `${m.direction}: ${m.text.slice(0, 20)}`)).toEqual([
      'inbound: Do you have bread? <',
      `outbound: ${REPLIES.bread.slice(0, 20)}`,
      'inbound: Are you open on Satu',
      `outbound: ${REPLIES.saturday.slice(0, 20)}`,
      'inbound: What is the price?',
      `outbound: ${REPLIES.price.slice(0, 20)}`,
    ]);
    await page.close();
  });

  it('has no serious or critical accessibility violation in the open panel (axe-core)', async () => {
    const { page } = await visit(context);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await replyShown(page, REPLIES.price);
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = (await page.evaluate(
      `axe.run(document.querySelector('switchboard-chat'), { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))`,
    )) as { id: string; impact: string; nodes: number }[];
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget.png') });
    await page.close();
  });

  it('fills a 390 px wide screen with the panel, with nothing to scroll sideways', async () => {
    const phone = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    try {
      const { page } = await visit(phone);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const dialog = page.getByRole('dialog', { name: 'Padaria Central' });
      await dialog.waitFor();
      expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      const widths = (await page.evaluate(
        `(() => { const log = document.querySelector('switchboard-chat').shadowRoot.querySelector('.log'); return { page: document.documentElement.scrollWidth, log: log.scrollWidth, logVisible: log.clientWidth }; })()`,
      )) as { page: number; log: number; logVisible: number };
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.log).toBeLessThanOrEqual(widths.logVisible);
    } finally {
      await phone.close();
    }
  });

  it('answers the page’s own code (window.Switchboard), counts replies that came while closed, and says when a person took over', async () => {
    const { page } = await visit(context);
    await page.getByRole('button', { name: 'Open chat' }).waitFor();
    await page.evaluate(`window.seen = []; Switchboard.on('message', (m) => window.seen.push(m.from + ': ' + m.text)); Switchboard.on('close', () => window.seen.push('closed'))`);
    await page.evaluate(`Switchboard.send('And the price of a loaf?')`);
    await page.getByRole('dialog', { name: 'Padaria Central' }).waitFor();
    await page.evaluate(`Switchboard.close()`);
    // The reply arrives while the chat is closed: the launcher counts it.
    await page.getByRole('button', { name: 'Open chat (1 unread)' }).waitFor();
    expect(await page.evaluate('window.seen')).toEqual(['visitor: And the price of a loaf?', 'closed', `agent: ${REPLIES.price}`]);
    await page.getByRole('button', { name: 'Open chat (1 unread)' }).click();
    await page.getByRole('button', { name: 'Open chat' }).waitFor({ state: 'hidden' });

    await suite.db.session.updateMany({ where: { channelId: widget.id }, data: { status: 'handed_off' } });
    try {
      await page.reload();
      await page.getByRole('button', { name: 'Open chat' }).click();
      await chat(page).getByText(en.panel.handedOff).waitFor();
      await page.evaluate(`Switchboard.identify({ name: 'Ana', plan: 'gold' })`);
      await eventually(async () => (await suite.db.session.findFirst({ where: { channelId: widget.id, visitorContext: { path: ['values', 'name'], equals: 'Ana' } } })) !== null, 30_000);
    } finally {
      await suite.db.session.updateMany({ where: { channelId: widget.id }, data: { status: 'active' } });
    }
    await page.close();
  });

  it("answers with the agent's fallback message when the tenant's monthly budget is spent", async () => {
    // The month has cost 5 micros (a roll-up row as the worker keeps it) and the budget is 5.
    const agentId = (await suite.db.agent.findFirstOrThrow({ where: { tenantId } })).id;
    await recordTurnUsage(suite.db, {
      tenantId, agentId, at: new Date(), llmCalls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
      queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
    });
    await suite.db.usageDaily.updateMany({ where: { tenantId }, data: { costMicros: 5n } });
    await suite.db.tenant.update({ where: { id: tenantId }, data: { monthlyBudgetMicros: 5n } });
    try {
      await new Promise((r) => setTimeout(r, QUOTA_CACHE_MS + 200)); // the API's cached verdict expires
      const { page } = await visit(context);
      await page.getByRole('button', { name: 'Open chat' }).click();
      await send(page, 'Is there bread today?');
      await agentBubbles(page).filter({ hasText: DEFAULT_FALLBACK_MESSAGES.en }).waitFor();
      // The visitor's message stands as sent (kept by the API), answered by the fallback message.
      await chat(page).locator('.msg.visitor', { hasText: 'Is there bread today?' }).waitFor();
      expect(await chat(page).locator('.failed-send').count()).toBe(0);
      const stored = await suite.db.message.findFirstOrThrow({ where: { channelId: widget.id, text: 'Is there bread today?' } });
      expect(stored).toMatchObject({ status: 'failed', kind: 'quota-exceeded' });
      await page.close();
    } finally {
      await suite.db.tenant.update({ where: { id: tenantId }, data: { monthlyBudgetMicros: null } });
      await new Promise((r) => setTimeout(r, QUOTA_CACHE_MS + 200));
    }
  });

  it('is refused on a page whose origin the channel does not allow', async () => {
    const other = await suite.browser.newContext();
    try {
      const { page } = await visit(other, elsewhere.origin);
      const failed: string[] = [];
      page.on('requestfailed', (r) => failed.push(r.url()));
      await page.getByRole('button', { name: 'Open chat' }).click();
      await chat(page).getByText(en.panel.unavailable).waitFor();
      expect(failed).toEqual([`${proxy.url}/v1/widget/${widget.publicId}/sessions`]);
      const direct = await fetch(`${api.baseUrl}/v1/widget/${widget.publicId}/sessions`, { method: 'POST', headers: { origin: elsewhere.origin, 'content-type': 'application/json' }, body: '{}' });
      expect([direct.status, ((await direct.json()) as { error: { code: string } }).error.code]).toEqual([403, 'origin-not-allowed']);
      expect(direct.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('the console’s “Web widget” channel', () => {
  it('creates one with a live preview and shows the snippet to paste', async () => {
    const owner = await createUser(suite.db, 'owner', tenantId);
    const { page, close } = await openConsole(suite.browser, owner.email, { baseUrl: api.baseUrl, failureName: 'widget-console' });
    let failed: unknown;
    try {
      await openList(page, 'Channels');
      await page.getByRole('link', { name: 'Create' }).click();
      await choose(page, page, /^Kind/, 'Web widget');
      await page.getByRole('textbox', { name: /^Name/ }).fill('Site chat');
      await choose(page, page, /^Agent/, 'Baker');
      const origins = page.getByLabel('Allowed origins', { exact: true });
      await origins.fill('https://www.padaria.example');
      await origins.press('Enter');
      await page.getByRole('textbox', { name: /^Title/ }).fill('Fale com a padaria');
      // The preview is the real widget, redrawn as the form changes.
      await page.getByTestId('widget-preview').getByRole('dialog', { name: 'Fale com a padaria' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'I have copied it' }).click();
      const snippet = (await page.getByTestId('widget-snippet').textContent()) ?? '';
      const row = await suite.db.channel.findFirstOrThrow({ where: { tenantId, name: 'Site chat' } });
      expect(row.kind).toBe('widget');
      expect(row.settings).toMatchObject({ allowedOrigins: ['https://www.padaria.example'], title: 'Fale com a padaria', conversationDays: 30 });
      expect(snippet).toBe(`<script src="${api.baseUrl}/widget.js" data-widget="${row.publicId}" data-color="#2563eb" data-position="right" async></script>`);
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      await close(failed);
    }
  });
});
