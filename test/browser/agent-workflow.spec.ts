import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { apiUrl, createTenant, createUser, unique } from '../integration/admin/support/admin-fixtures';
import type { WorkerProcess } from '../support/worker-process';
import { buildAgentWithStaleStepTool, chatInPlayground, fixAndPublish, publishAndSeeStepError } from './support/agent-steps';
import { chartsDrawn, choose, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { startWorkerPatiently } from './support/worker';

// The tenant workflow in a real browser against the real API, database and a real worker: build
// an agent with two fields, a three-step flow and tool allow-lists; see the engine refuse a step
// tool the agent does not allow, at that step; fix and publish; chat with it in the playground;
// find the turn's LLM calls on the dashboard and in the session; create a channel and its key.
jest.setTimeout(480_000);

const suite = useConsoleSuite({ screenshots: true });
let worker: WorkerProcess;

beforeAll(async () => {
  // The worker registers its code tools (preco, reservar) at start-up: the allow-list offers them.
  worker = await startWorkerPatiently();
}, 300_000);

afterAll(async () => {
  await worker?.stop();
});

async function createChannelAndKey(page: Page, agentName: string): Promise<{ key: string; secret: string }> {
  await openList(page, 'Channels');
  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('button', { name: 'Save' }).waitFor();
  await page.getByRole('textbox', { name: /^Name/ }).fill('WhatsApp');
  await choose(page, page, /^Agent/, agentName);
  await page.getByRole('button', { name: 'Save' }).click();
  const secret = (await page.getByTestId('one-time-secret').textContent()) ?? '';
  await page.getByRole('button', { name: 'I have copied it' }).click();

  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Key name (optional)').fill('production');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const key = (await page.getByTestId('one-time-secret').textContent()) ?? '';
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByTestId('api-keys').getByRole('row').filter({ hasText: 'production' }).waitFor();
  return { key, secret };
}

describe('the console, end to end', () => {
  it('builds, publishes and chats with an agent, shows its usage, and creates a channel key shown once', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const agentName = unique('Concierge');
    const { page, close } = await openConsole(suite.browser, owner.email);
    try {
      await buildAgentWithStaleStepTool(page, agentName);
      const error = await publishAndSeeStepError(page, SCREENSHOTS);
      // A sentence for people (#17): where, what and what to do, without class names or paths.
      expect(error).toContain('Flow "hospedagem", step "oferta" uses the tool “reservar”, which exists but is not one of this agent’s tools.');
      expect(error).not.toContain('FlowConfigurationError');
      // Only the step it concerns shows it.
      await expect(page.getByTestId('flow-0-step-0').getByTestId('publish-error-here').count()).resolves.toBe(0);
      await expect(page.getByTestId('flow-0-step-2').getByTestId('publish-error-here').count()).resolves.toBe(0);

      await fixAndPublish(page);
      await page.getByTestId('publish-error').waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: 'Versions' }).click();
      await page.getByTestId('versions').getByRole('row').filter({ hasText: 'owner user' }).waitFor();

      // The playground runs the saved draft on the worker, with no channel or key: one
      // understand call and one speak call, shown in the turn's trace.
      const reply = await chatInPlayground(page, agentName, 'quero reservar um quarto');
      expect(reply).toBe('Claro! Em qual cidade e para quantas pessoas?');
      const turnCalls = page.getByTestId('playground-chat').getByTestId('turn-llm-calls');
      await turnCalls.first().waitFor();
      expect(await turnCalls.first().textContent()).toContain('2 LLM calls');

      const { key, secret } = await createChannelAndKey(page, agentName);
      // A customer on the new channel: the usage the dashboard counts (playground turns are not customers).
      const sent = await fetch(apiUrl('/v1/messages?wait=15'), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session: 'browser-guest', text: 'quero reservar um quarto' }),
      });
      expect(((await sent.json()) as { replies: { text: string }[] }).replies.map((r) => r.text)).toEqual(['Claro! Em qual cidade e para quantas pessoas?']);

      await page.getByRole('menuitem', { name: 'Dashboard' }).click();
      await page.getByTestId('stat-llmCalls').getByText('2', { exact: true }).waitFor();
      await page.getByTestId('usage-llmCalls').getByText('2', { exact: true }).waitFor();
      // The playground turn is the console's own line, not among the customer figures above.
      await page.getByTestId('usage-console-playground').getByText('Playground: 1 turn · 2 LLM calls').waitFor();
      await chartsDrawn(page, 'chart-llm-calls', 'chart-turns', 'chart-tokens', 'chart-latency', 'chart-outcomes');
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard.png'), fullPage: true });

      await openList(page, 'Sessions');
      await page.getByRole('row').filter({ hasText: 'browser-guest' }).click();
      await page.getByTestId('transcript').getByText('Claro! Em qual cidade e para quantas pessoas?').waitFor();
      const turn = page.getByTestId('turns').getByRole('row').filter({ hasText: 'asked' });
      await turn.waitFor();
      expect(await turn.getByRole('cell').allTextContents()).toContain('2');
      await page.screenshot({ path: join(SCREENSHOTS, 'session.png'), fullPage: true });

      expect(secret).toMatch(/^whsec_/);
      expect(key.length).toBeGreaterThan(20);
      // Shown once: after the dialog only its prefix is on the page.
      await openList(page, 'Channels');
      await page.getByRole('row').filter({ hasText: 'WhatsApp' }).click();
      const keyRow = page.getByTestId('api-keys').getByRole('row').filter({ hasText: 'production' });
      await keyRow.waitFor();
      expect(await keyRow.textContent()).toContain(key.slice(0, 8));
      expect(await page.content()).not.toContain(key);
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  });
});
