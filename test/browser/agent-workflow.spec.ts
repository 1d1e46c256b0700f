import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PrismaClient } from '@switchboard/db';
import type { Browser, Page } from 'playwright-core';
import { createTenant, createUser, openDb, unique } from '../integration/admin/support/admin-fixtures';
import { startWorker, type WorkerProcess } from '../support/worker-process';
import { launchChromium } from './support/chromium';
import { ensureConsoleBuilt } from './support/console-build';
import { addChips, choose, notified, openConsole } from './support/console-page';

// The whole tenant workflow in a real browser against the real API and a real worker: build an
// agent with fields, a three-step flow and tool allow-lists; see the engine refuse a step tool the
// agent does not allow, at that step; fix and publish; chat with it in the playground.
jest.setTimeout(300_000);

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');

// The offline model: the understand call routes to the flow, every speak call asks.
const SCRIPT = JSON.stringify({
  rules: [
    { call: 'understand', flows: { hospedagem: 90 } },
    { call: 'speak', reply: 'Claro! Em qual cidade e para quantas pessoas?' },
  ],
});

let db: PrismaClient;
let browser: Browser;
let worker: WorkerProcess;

beforeAll(async () => {
  ensureConsoleBuilt();
  db = openDb();
  // The worker registers its code tools (preco, reservar) at start-up: the allow-list offers them.
  [browser, worker] = await Promise.all([launchChromium(), startWorker()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await db?.$disconnect();
});

async function addStep(page: Page, index: number, id: string, kind: RegExp) {
  const flow = page.getByTestId('flow-0');
  if (index > 0) await flow.getByRole('button', { name: 'Add step' }).click();
  const step = page.getByTestId(`flow-0-step-${index}`);
  await step.getByLabel('Step id').fill(id);
  await choose(page, step, 'Kind', kind);
  return step;
}

describe('building an agent in the console', () => {
  it('creates an agent with fields and a three-step flow, shows the engine error at the step, publishes, and chats', async () => {
    const t = await createTenant(db);
    const owner = await createUser(db, 'owner', t.tenant.id);
    const agentName = unique('Concierge');
    const { page, close } = await openConsole(browser, owner.email);
    try {
      await page.getByRole('menuitem', { name: 'Agents' }).click();
      await page.getByRole('link', { name: 'Create' }).click();
      await page.getByLabel('Name').fill(agentName);
      await page.getByLabel('Model').fill('concierge-script');
      await page.getByLabel('Script rules (JSON)').fill(SCRIPT);
      await page.getByRole('button', { name: 'Save' }).click();
      // Created: the edit page with its tabs.
      await page.getByRole('tab', { name: 'Fields' }).click();

      await page.getByRole('button', { name: 'Add field' }).click();
      await page.getByTestId('field-0').getByLabel('Slug').fill('cidade');
      await page.getByTestId('field-0').getByLabel('How to ask for it').fill('Pergunte a cidade.');
      await page.getByRole('button', { name: 'Add field' }).click();
      await page.getByTestId('field-1').getByLabel('Slug').fill('hospedes');
      await choose(page, page.getByTestId('field-1'), 'Type', 'integer');

      await page.getByRole('tab', { name: 'Tools & behaviour' }).click();
      await page.getByLabel(/^preco — code/).check();
      await page.getByLabel(/^reservar — code/).check();

      await page.getByRole('tab', { name: 'Flows' }).click();
      await page.getByRole('button', { name: 'Add flow' }).click();
      const flow = page.getByTestId('flow-0');
      await flow.getByLabel('Flow id').fill('hospedagem');
      await flow.getByLabel('Name', { exact: true }).fill('Hospedagem');
      await addChips(page.getByTestId('flow-0-trigger-0'), 'Example phrases', ['quero reservar um quarto', '!cancelar reserva']);

      const collect = await addStep(page, 0, 'onde', /^Collect/);
      await collect.getByLabel('cidade').check();
      await collect.getByLabel('hospedes').check();
      const offer = await addStep(page, 1, 'oferta', /^Prompt/);
      await offer.getByLabel('Prompt', { exact: true }).fill('Apresente o preço da diária.');
      await offer.getByLabel('preco').check();
      await offer.getByLabel('reservar').check();
      const thanks = await addStep(page, 2, 'obrigado', /^Say/);
      await thanks.getByLabel('Text to send, word for word').fill('Obrigado pelo contato!');

      // The agent stops allowing `reservar`, which the second step still names.
      await page.getByRole('tab', { name: 'Tools & behaviour' }).click();
      await page.getByLabel(/^reservar — code/).uncheck();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await notified(page, 'Element updated');

      await page.getByRole('button', { name: 'Publish' }).click();
      // The engine's message, in the step it concerns (the Flows tab opens by itself).
      const error = page.getByTestId('flow-0-step-1').getByTestId('publish-error-here');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/FlowConfigurationError.*oferta.*reservar/);
      await expect(page.getByTestId('flow-0-step-0').getByTestId('publish-error-here').count()).resolves.toBe(0);
      await page.getByTestId('publish-error').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'flow-editor.png'), fullPage: true });

      // Fix: untick the tool at the step, save, publish.
      await offer.getByLabel(/^reservar \(not in the agent's allow-list\)/).uncheck();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await notified(page, 'Element updated');
      await page.getByRole('button', { name: 'Publish' }).click();
      await notified(page, 'Published version 1');
      await expect(page.getByTestId('publish-error').count()).resolves.toBe(0);

      await page.getByRole('tab', { name: 'Versions' }).click();
      const versions = page.getByTestId('versions');
      await versions.getByRole('row').filter({ hasText: 'owner user' }).waitFor();
    } finally {
      await close();
    }
  });
});
