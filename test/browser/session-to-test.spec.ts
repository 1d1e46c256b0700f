import { join } from 'node:path';
import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig, hospedagemFlowSpec } from '@switchboard/agent-config';
import { apiUrl, createUser, unique } from '../integration/admin/support/admin-fixtures';
import { createTenantFixture } from '../support/fixtures';
import type { WorkerProcess } from '../support/worker-process';
import { saveDraft } from './support/agent-steps';
import { notified, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';
import { startWorkerPatiently } from './support/worker';

// A real customer conversation becomes a conversation test in the console (issue 18): "Save as
// test" on the session's page records it, the agent's Tests tab opens on it and runs it green;
// after an edit of the question the tab shows the failing expectation by name and the reply's
// diff against the last passing run. The recording's model calls are the dashboard's console
// line, not customer usage. Real API, database and worker.
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

describe('a real session saved as a conversation test', () => {
  it('records the transcript as a test, opens the Tests tab on it, and after an edit shows the failed expectation and the reply diff', async () => {
    const config: AgentConfig = {
      ...conciergeAgentConfig,
      flows: [{ ...hospedagemFlowSpec, steps: hospedagemFlowSpec.steps.map((s) => (s.id === 'onde' ? { ...s, question: QUESTION } : s)) }],
    };
    const fx = await createTenantFixture(suite.db, { agentConfig: config });
    const owner = await createUser(suite.db, 'owner', fx.tenant.id);

    // A customer talks to version 1 through the public API; the worker answers.
    const guest = unique('guest');
    const sent = await fetch(apiUrl('/v1/messages?wait=30'), {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: guest, text: 'Oi, quero um quarto' }),
    });
    expect(((await sent.json()) as { replies: { text: string }[] }).replies.map((r) => r.text)).toEqual([QUESTION]);

    const { page, close } = await openConsole(suite.browser, owner.email, { failureName: 'session-to-test' });
    try {
      await openList(page, 'Sessions');
      await page.getByRole('row').filter({ hasText: guest }).click();
      await page.getByTestId('transcript').getByText(QUESTION).waitFor();

      await page.getByTestId('save-session-as-test').click();
      const save = page.getByRole('dialog');
      await save.getByTestId('records-live').waitFor();
      await save.getByLabel('Test name').fill('asks the city');
      await expect(save.getByLabel('Reply 1 contains').inputValue()).resolves.toBe(QUESTION);
      await save.getByRole('button', { name: 'Save test' }).click();
      await notified(page, 'Test “asks the city” saved');

      // The agent's Tests tab, with the new test picked out; recorded on version 1.
      const row = page.getByTestId('test-row-asks the city');
      await page.locator('[data-testid="test-row-asks the city"][data-new="true"]').waitFor();
      expect(await row.textContent()).toContain('session (v1)');
      await row.getByRole('button', { name: 'Run' }).click();
      await notified(page, '1 test passed on the draft');
      await row.getByText('passed on draft').waitFor();

      // An edit of the first question: the named expectation fails, the reply shows as a diff.
      await page.getByRole('tab', { name: 'Flows' }).click();
      await page
        .getByTestId('flow-0-step-0')
        .getByRole('textbox', { name: /^Fixed first question/ })
        .fill('De onde você é?');
      await saveDraft(page);
      await page.getByRole('tab', { name: 'Tests' }).click();
      await row.getByRole('button', { name: 'Run' }).click();
      await notified(page, '1 of 1 test failed on the draft');
      await row.getByText('failed on draft').waitFor();
      expect(await row.getByTestId('expectation-failed').first().textContent()).toBe(`✗ reply contains "${QUESTION}" — reply: "De onde você é?"`);
      const diff = row.getByTestId('reply-diff');
      expect((await diff.getByTestId('reply-diff-removed').allTextContents()).join(' ')).toContain('cidade');
      expect((await diff.getByTestId('reply-diff-added').allTextContents()).join(' ')).toContain('onde');
      await page.screenshot({ path: join(SCREENSHOTS, 'tests-tab-reply-diff.png'), fullPage: true });

      // Recording ran the customer's message live: the console's own line on the dashboard, and
      // the customer figures still count the one customer turn only.
      const recorded = await suite.db.consoleUsageDaily.findFirstOrThrow({ where: { tenantId: fx.tenant.id, source: 'conversation-test' } });
      expect(recorded.turns).toBe(1);
      await page.getByRole('menuitem', { name: 'Dashboard' }).click();
      await page.getByTestId('usage-console-conversation-test').getByText(`Live conversation tests: 1 turn · ${recorded.llmCalls} LLM call`).waitFor();
      await page.getByTestId('usage-console-playground').getByText('Playground: 0 turns').waitFor();
      const customer = await suite.db.usageDaily.aggregate({ where: { tenantId: fx.tenant.id }, _sum: { turns: true } });
      expect(customer._sum.turns).toBe(1);
      expect(await suite.db.session.count({ where: { tenantId: fx.tenant.id } })).toBe(1);
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  });
});
