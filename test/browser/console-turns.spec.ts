import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEV_MASTER_KEY } from '@switchboard/config';
import { encryptSecret, parseMasterKey, SECRET_CONTEXTS } from '@switchboard/db';
import { newWebhookSecret } from '@switchboard/webhooks';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createSession, createTenant, createTurn, createUser, unique } from '../integration/admin/support/admin-fixtures';
import { startPrivateApi, type PrivateApi } from '../integration/worker/support/private-api';
import type { WorkerProcess } from '../support/worker-process';
import { openConsole } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { startWorkerPatiently } from './support/worker';

// The console's views of what happens inside turns and tools, in headless Chromium: a turn's
// tool calls in the session view, an HTTP tool's test call and a channel's test delivery
// answered by a real worker, and the platform admins' tenant switcher. Its own API and queue prefix: the test call's job must reach
// this suite's worker (which may call localhost), not another suite's.
jest.setTimeout(300_000);

const LONG_RESULT = JSON.stringify({ diaria: 320, moeda: 'BRL', politica: 'Cancelamento grátis até 48 h antes. '.repeat(20) });

const suite = useConsoleSuite({ screenshots: true });
let api: PrivateApi;
let worker: WorkerProcess;
let receiver: Server;
let receiverPort: number;
const received: { path: string; headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body });
      if (req.url === '/hook') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'crm-7' });
        res.end(JSON.stringify({ received: true }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-quote-id': 'q-77' });
      res.end(JSON.stringify({ price: 320, city: 'Curitiba' }));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, r));
  receiverPort = (receiver.address() as AddressInfo).port;
  api = await startPrivateApi();
  worker = await startWorkerPatiently({ QUEUE_PREFIX: api.queuePrefix, OUTBOUND_ALLOWED_HOSTS: 'localhost' });
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  if (receiver) await new Promise((r) => receiver.close(r));
});

/** Picks a tenant in the app bar's switcher: types to search, then clicks the match. */
async function switchTenant(page: Page, name: string): Promise<void> {
  const input = page.getByTestId('tenant-switcher').getByRole('combobox', { name: 'Tenant' });
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await input.fill(name === 'All tenants' ? '' : name);
    await page.getByRole('option', { name, exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    // The search's answer can replace the options just as the click lands (seen on a loaded
    // machine: the previous pick was clicked again); the switcher shows what was picked.
    const shown = await input.inputValue();
    if (shown === name) return;
    if (attempt === 3) throw new Error(`the tenant switcher shows "${shown}" after picking "${name}" three times`);
  }
}

async function run(email: string, steps: (page: Page) => Promise<void>): Promise<void> {
  // The private API's console; a failure's screenshot goes under .tmp/.
  const { page, close } = await openConsole(suite.browser, email, { baseUrl: api.baseUrl, failureName: 'console-turns-failure' });
  try {
    await steps(page);
  } catch (err) {
    await close(err);
    throw err;
  }
  await close();
}

describe('the console, inside turns and tools', () => {
  it('shows a turn’s model and tool calls, arguments, results and outcome lines in the session view', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const externalKey = unique('whatsapp-trace');
    const session = await createSession(suite.db, t, { externalKey, texts: ['Quanto custa a diária em Curitiba?', 'A diária é R$ 320.'] });
    const turn = await createTurn(suite.db, t, session.id, { llmCalls: 2, inputTokens: 1850, outputTokens: 62, outcomeCodes: ['spoke'] });
    await suite.db.turn.update({
      where: { id: turn.id },
      data: {
        modelMs: 790,
        toolsMs: 35,
        queueWaitMs: 12,
        commitMs: 9,
        totalMs: 846,
        trace: [
          { type: 'model', call: 'speak', round: 0, ms: 410, usage: { inputTokens: 900, outputTokens: 40 } },
          { type: 'tool', round: 0, index: 0, id: 'call-0-0', tool: 'preco', arguments: { cidade: 'Curitiba', noites: 2 }, gate: 'ok', result: LONG_RESULT, ms: 35 },
          { type: 'model', call: 'speak', round: 1, ms: 380, usage: { inputTokens: 950, outputTokens: 22 } },
        ],
        outcomes: [{ flowId: 'hospedagem', stepId: 'oferta', kind: 'prompt', status: 'ok', code: 'spoke', message: 'answered with the price', at: new Date().toISOString() }],
      },
    });

    await run(owner.email, async (page) => {
      await page.goto(`${api.baseUrl}/admin/#/sessions/${session.id}/show`);
      const row = page.getByTestId('turns').getByRole('row').filter({ hasText: 'scripted-model' });
      await row.getByRole('cell', { name: 'scripted-model' }).click();
      const details = page.getByTestId('turn-details');
      await details.waitFor();
      await expect(details.getByTestId('turn-usage').textContent()).resolves.toMatch(/^2 LLM calls · 1,850 tokens in · 62 tokens out · cost \$\d+\.\d{6}$/);
      await expect(details.getByTestId('turn-timing').textContent()).resolves.toContain('Tools 35 ms');
      await expect(details.getByTestId('trace-model').count()).resolves.toBe(2);
      const tool = details.getByTestId('trace-tool');
      await expect(tool.getByTestId('tool-name').textContent()).resolves.toBe('preco');
      expect(JSON.parse((await tool.getByTestId('tool-arguments').textContent()) ?? '')).toEqual({ cidade: 'Curitiba', noites: 2 });
      // The long result is cut until expanded.
      const result = tool.getByTestId('tool-result');
      expect(await result.textContent()).toMatch(/…$/);
      await tool.getByRole('button', { name: /^Show all/ }).click();
      expect(JSON.parse((await result.textContent()) ?? '')).toEqual(JSON.parse(LONG_RESULT));
      const outcome = details.getByTestId('turn-outcomes').getByRole('row').filter({ hasText: 'hospedagem › oferta' });
      expect(await outcome.getByRole('cell').allTextContents()).toEqual(['hospedagem › oferta', 'prompt', 'ok', 'spoke', 'answered with the price']);
      await page.screenshot({ path: join(SCREENSHOTS, 'session-turn.png'), fullPage: true });
    });
  });

  it('test-calls an HTTP tool from its edit page: status, headers and body come back from a worker', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const tool = await suite.db.toolDefinition.create({
      data: {
        tenantId: t.tenant.id,
        toolId: unique('quote').replace(/-/g, '_'),
        url: `http://localhost:${receiverPort}/quote`,
        method: 'POST',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        timeoutMs: 3000,
      },
    });

    await run(owner.email, async (page) => {
      await page.goto(`${api.baseUrl}/admin/#/http-tools/${tool.id}`);
      const panel = page.getByTestId('http-tool-test-call');
      const args = panel.getByLabel('Sample arguments (JSON)');
      await args.waitFor();
      // Wrong arguments: the API's schema check answers, nothing is called.
      await args.fill('{"town": "Curitiba"}');
      await panel.getByRole('button', { name: 'Test call' }).click();
      await expect(panel.getByTestId('test-call-refused').textContent()).resolves.toContain('invalid-tool-arguments');

      await args.fill('{"city": "Curitiba"}');
      await panel.getByRole('button', { name: 'Test call' }).click();
      await expect(panel.getByTestId('test-call-status').textContent()).resolves.toBe('HTTP 200');
      await panel.getByTestId('test-call-headers').getByRole('row').filter({ hasText: 'x-quote-id' }).getByText('q-77').waitFor();
      expect(JSON.parse((await panel.getByTestId('tool-result').textContent()) ?? '')).toEqual({ price: 320, city: 'Curitiba' });
    });
  });

  it('sends a test delivery from a channel’s edit page and rotates its secret with a grace period', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const secret = newWebhookSecret();
    await suite.db.channel.update({
      where: { id: t.channel.id },
      data: {
        webhookUrl: `http://localhost:${receiverPort}/hook`,
        webhookSecretEncrypted: encryptSecret(secret, parseMasterKey(DEV_MASTER_KEY), SECRET_CONTEXTS.channelWebhook(t.tenant.id)),
      },
    });

    await run(owner.email, async (page) => {
      await page.goto(`${api.baseUrl}/admin/#/channels/${t.channel.id}`);
      const panel = page.getByTestId('test-delivery');
      await panel.getByRole('button', { name: 'Send test delivery' }).click();
      await expect(panel.getByTestId('test-delivery-status').textContent()).resolves.toBe('HTTP 200');
      await panel.getByTestId('test-delivery-headers').getByRole('row').filter({ hasText: 'x-receiver' }).getByText('crm-7').waitFor();
      await panel.screenshot({ path: join(SCREENSHOTS, 'channel-test-delivery.png') });
      const hit = received.find((r) => r.path === '/hook')!;
      expect(new Webhook(secret).verify(hit.body, hit.headers)).toMatchObject({ type: 'webhook.test', channelId: t.channel.id });

      await page.getByRole('button', { name: 'Rotate webhook secret' }).click();
      await page.getByTestId('rotate-grace').click();
      await page.getByRole('option', { name: '1 hour' }).click();
      await page.getByRole('button', { name: 'Rotate', exact: true }).click();
      await expect(page.getByTestId('one-time-secret').textContent()).resolves.toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await page.getByTestId('previous-secret').waitFor();
    });
    const channel = await suite.db.channel.findUniqueOrThrow({ where: { id: t.channel.id } });
    expect(channel.webhookSecretPreviousExpiresAt!.getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });

  it('lets a platform admin switch tenants: the lists and the dashboard show the picked tenant, or all', async () => {
    const a = await createTenant(suite.db);
    const b = await createTenant(suite.db);
    const keyA = unique('switch-a');
    const keyB = unique('switch-b');
    await createSession(suite.db, a, { externalKey: keyA, texts: ['oi'] });
    await createSession(suite.db, b, { externalKey: keyB, texts: ['olá', 'oi!', 'tudo bem?'] });
    const admin = await createUser(suite.db, 'platform_admin', null);

    await run(admin.email, async (page) => {
      const rows = (key: string) => page.getByRole('row').filter({ hasText: key });
      await page.getByRole('menuitem', { name: 'Sessions' }).click();
      await page.getByPlaceholder('Session key').fill('switch-');
      await rows(keyA).waitFor();
      await rows(keyB).waitFor();

      await switchTenant(page, a.tenant.name);
      await rows(keyB).waitFor({ state: 'detached' });
      await rows(keyA).waitFor();

      await switchTenant(page, b.tenant.name);
      await rows(keyA).waitFor({ state: 'detached' });
      await rows(keyB).waitFor();
      // The dashboard counts the picked tenant only: one session, three messages.
      await page.getByRole('menuitem', { name: 'Dashboard' }).click();
      await page.getByTestId('stat-sessions').getByText('1', { exact: true }).waitFor();
      await page.getByTestId('stat-messages').getByText('3', { exact: true }).waitFor();

      await switchTenant(page, 'All tenants');
      await page.getByRole('menuitem', { name: 'Sessions' }).click();
      await rows(keyA).waitFor();
      await rows(keyB).waitFor();
    });
  });
});
