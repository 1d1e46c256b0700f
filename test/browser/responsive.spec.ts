import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { Page } from 'playwright-core';
import { createUser, PASSWORD } from '../integration/admin/support/admin-fixtures';
import { eventually, startPrivateApi, type PrivateApi } from '../integration/worker/support/private-api';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../support/fixtures';
import type { WorkerProcess } from '../support/worker-process';
import { addressOf, consoleRoutes, type ConsoleRoute } from './support/console-routes';
import { signIn } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { readOverflow, settle } from './support/overflow';
import { startWorkerPatiently } from './support/worker';

// Issue 22, item 2: every console page usable at 390 px and up. A tenant owner and a platform
// admin (every tenant's rows, with the Tenant column) walk every route of the console — read
// from its source (support/console-routes.ts), so a new page is walked too — at 390, 768 and
// 1280 px, open each tab and the first expandable row, and the page must never be wider than
// the viewport. The data is what the demo shows: the Concierge answering real turns on a worker
// (tool calls in the traces), webhook deliveries, a conversation taken over in the inbox, an
// HTTP tool, a provider key and prices. Its own API and queue, so its worker answers only it.
jest.setTimeout(1_500_000);

const WIDTHS = [390, 768, 1280] as const;
type Width = (typeof WIDTHS)[number];
const HEIGHTS: Record<Width, number> = { 390: 844, 768: 1024, 1280: 800 };
const NOT_FOUND = 'Either you typed a wrong URL, or you followed a bad link.';
/** One unbroken 600-character string in a tool result: a trace view must wrap or scroll it. */
const LONG_RESULT = JSON.stringify({ diaria: 320, moeda: 'BRL', token: 'x'.repeat(600), politica: 'Cancelamento grátis até 48 h antes. '.repeat(12) });

/** The owner's pages at 390 px that the README shows. */
const MOBILE_SCREENSHOTS: Record<string, string> = { '/': 'mobile-dashboard.png', '/sessions': 'mobile-sessions.png', '/inbox/:id': 'mobile-conversation.png' };

const WALK_LOG = join(__dirname, '..', '..', '.tmp', 'responsive-walk.log');

const suite = useConsoleSuite({ screenshots: true });
let api: PrivateApi;
let worker: WorkerProcess;
let receiver: Server;

interface Seeded {
  fx: TenantFixture;
  ownerEmail: string;
  adminEmail: string;
  /** A record id for each resource's show and edit pages. */
  ids: Record<string, string>;
  /** Values for the parameters of custom routes, by route path. */
  params: Record<string, Record<string, string>>;
}
let seeded: Seeded;

async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function tokenOf(email: string): Promise<string> {
  const res = await fetch(`${api.baseUrl}/v1/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** The id of the first row `token` lists of a resource, if any. */
async function firstId(resource: string, token: string): Promise<string | undefined> {
  const res = await fetch(`${api.baseUrl}/v1/admin/${resource}?range=${encodeURIComponent('[0,0]')}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) return undefined;
  const rows = (await res.json()) as { id: string }[];
  return rows[0]?.id;
}

/** The demo's shape, in a tenant of this test's own. */
async function seed(): Promise<Seeded> {
  const suffix = uniqueSuffix();
  const fx = await createTenantFixture(suite.db, { agentConfig: conciergeAgentConfig });
  const port = (receiver.address() as AddressInfo).port;
  await suite.db.tenant.update({ where: { id: fx.tenant.id }, data: { name: `Hotel Atlântico Curitiba ${suffix}` } });
  await suite.db.agent.update({ where: { id: fx.agent.id }, data: { name: 'Concierge' } });
  await suite.db.channel.update({ where: { id: fx.channel.id }, data: { name: 'Hotel website', webhookUrl: `http://127.0.0.1:${port}/hooks/switchboard-replies` } });
  const owner = await createUser(suite.db, 'owner', fx.tenant.id);
  await createUser(suite.db, 'operator', fx.tenant.id);
  const admin = await createUser(suite.db, 'platform_admin', null);
  const ownerToken = await tokenOf(owner.email);
  const adminToken = await tokenOf(admin.email);

  // Real turns of the Concierge: a booking through its flow (with the `preco` tool), and a
  // conversation an operator takes over.
  const booking = `whatsapp-5541999990000-${suffix}`;
  let bookingSessionId = '';
  for (const text of ['Oi', 'quero reservar um quarto', 'Curitiba', 'sim, pode reservar']) {
    const answer = await call<{ sessionId: string }>('POST', '/v1/messages?wait=30', fx.apiKey, { session: booking, text });
    bookingSessionId = answer.sessionId;
  }
  const handedOff = await call<{ sessionId: string }>('POST', '/v1/messages?wait=30', fx.apiKey, {
    session: `widget-visitor-${suffix}`,
    text: 'Oi, preciso mudar a data de uma reserva antiga e ninguém responde o e-mail',
  });
  await call('POST', `/v1/admin/inbox/${handedOff.sessionId}/take-over`, ownerToken);
  await call('POST', `/v1/admin/inbox/${handedOff.sessionId}/replies`, ownerToken, { text: 'Olá! Sou a Ana, da recepção. Qual o código da reserva?', clientKey: randomUUID() });
  await call('POST', `/v1/admin/inbox/${handedOff.sessionId}/notes`, ownerToken, { text: 'Cliente antiga; reserva de março, código no CRM: https://crm.hotel.example/reservas/2024/03/0000000000000000' });

  // A turn whose tool answered a long unbroken string, as a misbehaving HTTP tool would.
  await suite.db.turn.create({
    data: {
      tenantId: fx.tenant.id,
      sessionId: bookingSessionId,
      agentId: fx.agent.id,
      provider: 'scripted',
      model: 'concierge-script',
      llmCalls: 2,
      inputTokens: 1850,
      outputTokens: 62,
      outcomeCodes: ['spoke'],
      totalMs: 846,
      trace: [
        { type: 'model', call: 'speak', round: 0, ms: 410, usage: { inputTokens: 900, outputTokens: 40 } },
        { type: 'tool', round: 0, index: 0, id: 'call-0-0', tool: 'preco', arguments: { cidade: 'Curitiba', noites: 2 }, gate: 'ok', result: LONG_RESULT, ms: 35 },
      ],
      outcomes: [{ flowId: 'hospedagem', stepId: 'oferta', kind: 'prompt', status: 'ok', code: 'spoke', message: 'answered with the price', at: new Date().toISOString() }],
    },
  });

  await call('POST', '/v1/admin/http-tools', ownerToken, {
    toolId: 'consulta_reserva',
    description: 'Looks a booking up in the hotel system by its code and returns dates, room and guest names',
    url: 'https://api.hotel-atlantico.example/v2/reservations/lookup-by-confirmation-code',
    parameters: { type: 'object', properties: { codigo: { type: 'string', description: 'Booking code, e.g. HA-2024-000123' } }, required: ['codigo'] },
    headers: { 'x-hotel-property': 'curitiba-centro' },
  });
  await call('POST', '/v1/admin/provider-credentials', ownerToken, { name: 'OpenAI production (front desk)', kind: 'openai', secret: 'sk-responsive-test-not-a-real-key' });
  await call('POST', '/v1/admin/tenant-model-prices', adminToken, {
    tenantId: fx.tenant.id, provider: 'openai', model: 'gpt-4o-mini', input: '0.15', cachedInput: '0.075', output: '0.60', source: 'Negotiated with the vendor, contract 2026-11',
  });
  await call('POST', '/v1/admin/model-prices', adminToken, {
    provider: 'responsive-test', model: `model-${suffix}`, input: '2.50', cachedInput: '1.25', output: '10.00', source: 'https://example.com/pricing (copied by the responsive test)',
  });
  // The channel's webhook receives the replies: deliveries to list and show.
  await eventually(async () => (await suite.db.delivery.count({ where: { tenantId: fx.tenant.id } })) > 0, 60_000);

  const known: Record<string, string> = { tenants: fx.tenant.id, agents: fx.agent.id, channels: fx.channel.id, sessions: bookingSessionId };
  const ids: Record<string, string> = {};
  for (const route of consoleRoutes()) {
    if (!route.resource || !route.path.includes(':id') || ids[route.resource]) continue;
    const id = known[route.resource] ?? (await firstId(route.resource, ownerToken)) ?? (await firstId(route.resource, adminToken));
    if (id) ids[route.resource] = id;
  }
  return { fx, ownerEmail: owner.email, adminEmail: admin.email, ids, params: { '/inbox/:id': { id: handedOff.sessionId } } };
}

beforeAll(async () => {
  mkdirSync(join(WALK_LOG, '..'), { recursive: true });
  writeFileSync(WALK_LOG, '');
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  api = await startPrivateApi({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  worker = await startWorkerPatiently({ QUEUE_PREFIX: api.queuePrefix, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  seeded = await seed();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  if (receiver) await new Promise((r) => receiver.close(r));
});

const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '').split('?')[0];

/** Reads the page's width; a failure line when it is wider than the viewport. */
async function measure(page: Page, where: string): Promise<string | undefined> {
  await settle(page);
  const reading = await readOverflow(page);
  const fits = reading.scrollWidth <= reading.clientWidth && reading.culprits.length === 0;
  const failure = fits ? undefined : `${where}: ${reading.scrollWidth} px wide in ${reading.clientWidth} px — ${reading.culprits.join('; ') || 'no element found'}`;
  // The walk takes minutes: what it finds is written down as it goes, to read while it runs.
  appendFileSync(WALK_LOG, `${failure ?? `ok ${where}`}\n`);
  return failure;
}

/** Opens each tab of the page in turn, then the first expandable row, measuring each. */
async function measureInside(page: Page, where: string): Promise<string[]> {
  const failures: string[] = [];
  const tabs = page.locator('#main-content [role="tab"]:visible');
  for (let i = 0; i < (await tabs.count()); i++) {
    const tab = tabs.nth(i);
    const name = (await tab.textContent())?.trim() ?? `#${i}`;
    try {
      await tab.click({ timeout: 10_000 });
    } catch (err) {
      failures.push(`${where}: could not open tab "${name}": ${(err as Error).message.split('\n')[0]}`);
      continue;
    }
    const failure = await measure(page, `${where}, tab "${name}"`);
    if (failure) failures.push(failure);
  }
  // A table row's expand icon (hidden from the accessibility tree), or a card's More button.
  const expand = page.locator('#main-content .RaDatagrid-expandIcon, #main-content [data-testid="record-card"] button[aria-label="Expand"]').first();
  if (await expand.isVisible()) {
    await expand.click({ timeout: 10_000 }).catch((err: Error) => failures.push(`${where}: could not expand a row: ${err.message.split('\n')[0]}`));
    const failure = await measure(page, `${where}, first row expanded`);
    if (failure) failures.push(failure);
  }
  return failures;
}

interface Walk {
  failures: string[];
  /** Routes the login could open (not answered "not found"). */
  opened: Set<string>;
}

/** A fresh browser at `width` logged in as `email`, as a person on that screen would start. */
async function loggedIn(email: string, width: Width) {
  const context = await suite.browser.newContext({ viewport: { width, height: HEIGHTS[width] }, ...(width < 600 && { isMobile: true, hasTouch: true }) });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await signIn(page, email, api.baseUrl);
  await page.getByTestId('stat-sessions').waitFor();
  return { context, page };
}

/** `npm run test:responsive` (RESPONSIVE_FULL=1) walks both logins at every width. */
const widthsInNpmTest = (widths: readonly Width[]): readonly Width[] => (process.env.RESPONSIVE_FULL === '1' ? WIDTHS : widths);

/**
 * The owner's walk in `npm test`: 390 and 768 px, the phone and tablet layouts, where overflow
 * shows first; the other browser suites drive the console at 1400 px, the desktop layout 1280 has
 * too (the walk is this suite's longest part, and at three widths it held `npm test` near its
 * 20-minute budget on a slow machine).
 */
const OWNER_WIDTHS = widthsInNpmTest([390, 768]);

/**
 * The platform admin's walk in `npm test`: 390 px only, where the extra Tenant column is most
 * likely to overflow; its pages are the owner's components, which the owner walks at 390 and 768.
 */
const ADMIN_WIDTHS = widthsInNpmTest([390]);

async function walk(email: string, label: string, routes: ConsoleRoute[], widths: readonly Width[]): Promise<Walk> {
  const result: Walk = { failures: [], opened: new Set() };
  for (const width of widths) {
    const { context, page } = await loggedIn(email, width);
    try {
      for (const route of routes) {
        const address = addressOf(route, seeded.ids, seeded.params);
        const where = `${label} at ${width} px, ${route.path}`;
        await page.goto(`${api.baseUrl}/admin/#${address}`);
        await settle(page);
        if (await page.getByText(NOT_FOUND).isVisible()) continue;
        result.opened.add(route.path);
        // A page that sends the user elsewhere (a refused read) was not measured: say so.
        if (hashPath(page) !== address) {
          result.failures.push(`${where}: opened ${hashPath(page)} instead of ${address}`);
          continue;
        }
        const failure = await measure(page, where);
        if (failure) result.failures.push(failure);
        const shot = label === 'owner' && width === 390 && MOBILE_SCREENSHOTS[route.path];
        if (shot) await page.screenshot({ path: join(SCREENSHOTS, shot) });
        result.failures.push(...(await measureInside(page, where)));
      }
    } finally {
      await context.close();
    }
  }
  return result;
}

describe('the console at 390 and 768 px (and 1280 in npm run test:responsive)', () => {
  it('has no horizontal overflow on any route, for a tenant owner and a platform admin', async () => {
    const routes = consoleRoutes();
    const owner = await walk(seeded.ownerEmail, 'owner', routes, OWNER_WIDTHS);
    const admin = await walk(seeded.adminEmail, 'platform admin', routes, ADMIN_WIDTHS);
    // Every route was opened by one of the two logins, so none went unmeasured.
    expect(routes.map((r) => r.path).filter((p) => !owner.opened.has(p) && !admin.opened.has(p))).toEqual([]);
    expect([...owner.failures, ...admin.failures]).toEqual([]);
  });

  it("keeps the playground's Send button on screen at 390 px, before and after a turn", async () => {
    const { context, page } = await loggedIn(seeded.ownerEmail, 390);
    try {
      await page.goto(`${api.baseUrl}/admin/#/playground`);
      await page.getByRole('combobox', { name: 'Agent' }).click();
      await page.getByRole('option', { name: /^Concierge/ }).click();
      const send = page.getByRole('button', { name: 'Send' });
      const onScreen = async () => {
        const box = (await send.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      };
      await onScreen();
      await page.getByRole('textbox', { name: 'Message' }).fill('quero reservar um quarto em Curitiba');
      await send.click();
      await page.getByTestId('playground-agent').first().waitFor();
      await page.getByTestId('playground-turn').first().click();
      await onScreen();
      expect(await measure(page, 'playground after a turn')).toBeUndefined();
      await page.screenshot({ path: join(SCREENSHOTS, 'mobile-playground.png') });
    } finally {
      await context.close();
    }
  });
  it("lets a tablet (768 px) edit a flow: the graph fits its pane, a node opens its step in the form", async () => {
    const { context, page } = await loggedIn(seeded.ownerEmail, 768);
    try {
      await page.goto(`${api.baseUrl}/admin/#/agents/${seeded.fx.agent.id}`);
      await page.getByRole('tab', { name: 'Flows' }).click();
      const graph = page.getByTestId('flow-0-graph');
      const node = graph.getByTestId('graph-node-step-2');
      await node.waitFor();
      await eventually(async () => ((await node.boundingBox())?.width ?? 0) > 100, 10_000);
      const pane = (await graph.boundingBox())!;
      expect(pane.x).toBeGreaterThanOrEqual(0);
      expect(pane.x + pane.width).toBeLessThanOrEqual(768);
      for (const id of ['trigger-0', 'step-0', 'step-1', 'step-2']) {
        const box = (await graph.getByTestId(`graph-node-${id}`).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(pane.x);
        expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width);
      }
      await node.click();
      // A string, as the test compiles without the DOM types.
      await page.waitForFunction(`document.activeElement?.closest('[data-testid="flow-0-step-2"]') != null`);
      const step = (await page.getByTestId('flow-0-step-2').boundingBox())!;
      expect(step.x + step.width).toBeLessThanOrEqual(768);
      expect(await measure(page, 'flow editor at 768 px')).toBeUndefined();
      await graph.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'tablet-flow-editor.png') });
    } finally {
      await context.close();
    }
  });
});
