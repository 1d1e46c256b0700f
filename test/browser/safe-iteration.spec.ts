import { join } from 'node:path';
import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig, hospedagemFlowSpec } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { createTenant, createUser, unique } from '../integration/admin/support/admin-fixtures';
import type { WorkerProcess } from '../support/worker-process';
import { confirmPublish, saveDraft } from './support/agent-steps';
import { notified, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { startWorkerPatiently } from './support/worker';

// Safe iteration in a real browser (issue 18): record a conversation test in the editor's
// playground on the draft, break the flow, see publish blocked with the failing expectation, fix
// it, publish, and restore the previous version — against the real API, database and worker.
jest.setTimeout(480_000);

const QUESTION = 'Em qual cidade você quer ficar?';
const suite = useConsoleSuite({ screenshots: true });
let worker: WorkerProcess;

beforeAll(async () => {
  worker = await startWorkerPatiently();
}, 300_000);

afterAll(async () => {
  await worker?.stop();
});

describe('safe iteration in the console', () => {
  it('records a test in the playground, blocks a publish that breaks it, publishes the fix and restores the previous version', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const name = unique('Concierge');
    const config: AgentConfig = {
      ...conciergeAgentConfig,
      name,
      flows: [{ ...hospedagemFlowSpec, steps: hospedagemFlowSpec.steps.map((s) => (s.id === 'onde' ? { ...s, question: QUESTION } : s)) }],
    };
    const json = config as unknown as Prisma.InputJsonValue;
    const agent = await suite.db.agent.create({ data: { tenantId: t.tenant.id, name, config: json, publishedVersion: 1 } });
    await suite.db.agentVersion.create({ data: { tenantId: t.tenant.id, agentId: agent.id, version: 1, config: json } });

    const channelsAndKeys = async () => [await suite.db.channel.count({ where: { tenantId: t.tenant.id } }), await suite.db.apiKey.count({ where: { tenantId: t.tenant.id } })];
    const before = await channelsAndKeys();
    const { page, close } = await openConsole(suite.browser, owner.email, { failureName: 'safe-iteration' });
    try {
      await openList(page, 'Agents');
      await page.getByRole('row').filter({ hasText: name }).click();
      await page.getByRole('tab', { name: 'Playground' }).click();

      // The draft as the form holds it, through the worker's real engine; no channel, no key.
      const playground = page.getByTestId('playground');
      await playground.getByRole('textbox', { name: 'Message' }).fill('Oi, quero um quarto');
      await playground.getByRole('button', { name: 'Send' }).click();
      await page.getByTestId('playground-agent').filter({ hasText: QUESTION }).waitFor();
      await page.getByTestId('playground-turn').first().click();
      await page.getByTestId('playground-turn').first().getByTestId('trace-model').first().waitFor();

      await page.getByRole('button', { name: 'Save as test' }).click();
      const save = page.getByRole('dialog');
      await save.getByLabel('Test name').fill('asks the city');
      await expect(save.getByLabel('Reply 1 contains').inputValue()).resolves.toBe(QUESTION);
      await save.getByRole('button', { name: 'Save test' }).click();
      await notified(page, 'Test “asks the city” saved');

      // Break the flow: the first question changes.
      await page.getByRole('tab', { name: 'Flows' }).click();
      const question = page.getByTestId('flow-0-step-0').getByRole('textbox', { name: /^Fixed first question/ });
      await question.fill('De onde você é?');
      await saveDraft(page);
      await page.getByTestId('unpublished-changes').waitFor();

      await confirmPublish(page, 'new wording');
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('publish-blocked').waitFor();
      expect(await dialog.getByTestId('publish-blocked').textContent()).toContain('1 of 1 conversation tests failed ("asks the city")');
      const failed = dialog.getByTestId('expectation-failed');
      expect(await failed.first().textContent()).toContain(`reply contains "${QUESTION}" — reply: "De onde você é?"`);
      await page.screenshot({ path: join(SCREENSHOTS, 'publish-blocked-by-tests.png'), fullPage: true });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await suite.db.agent.findUniqueOrThrow({ where: { id: agent.id } })).publishedVersion).toBe(1);

      // The agents list marks the draft that differs from the live version too.
      await openList(page, 'Agents');
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByTestId('unpublished-changes').waitFor();
      await row.click();
      await page.getByRole('tab', { name: 'Flows' }).click();

      // Fix it and publish: the test passes.
      await question.fill(QUESTION);
      await saveDraft(page);
      await confirmPublish(page, 'question back');
      await notified(page, 'Version 2 published. 1 test(s) passed.');

      // Restore version 1: it becomes the draft and is published through the same tests.
      await page.getByRole('tab', { name: 'Versions' }).click();
      await page.getByTestId('version-2').filter({ hasText: 'question back' }).waitFor();
      await page.getByTestId('version-1').getByRole('button', { name: 'Restore' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Restore and publish' }).click();
      await notified(page, 'Version 3 published. 1 test(s) passed. Restored from version 1.');
      await page.getByTestId('version-3').filter({ hasText: 'restored from version 1' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'versions-restore.png'), fullPage: true });

      // The playground made no channel and no key.
      expect(await channelsAndKeys()).toEqual(before);
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  });
});
