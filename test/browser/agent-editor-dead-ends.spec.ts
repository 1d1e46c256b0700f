import type { Page } from 'playwright-core';
import { apiUrl, createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { confirmPublish, saveDraft } from './support/agent-steps';
import { choose, openConsole } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';

// No dead ends in the agent editor: a field the flows use is deleted with its uses (and the
// draft still publishes), a save refused for an input on another tab opens that tab, marked
// with its error count, at the input, and a script rule the worker could not compile is refused
// by publish at the script's input.
jest.setTimeout(180_000);

const suite = useConsoleSuite();

const config = () => ({
  provider: { kind: 'scripted', model: 'concierge-script', scripted: { rules: [{ call: 'speak', reply: 'Claro!' }] } },
  fields: { cidade: { type: 'string', ask: 'Pergunte a cidade.' }, email: { type: 'string' } },
  tools: [],
  flows: [
    {
      id: 'hospedagem',
      name: 'Hospedagem',
      on: [{ message: ['quero reservar um quarto'] }],
      steps: [
        { id: 'onde', kind: 'collect', collect: ['cidade', 'email'] },
        { id: 'oferta', kind: 'prompt', prompt: 'Apresente o preço da diária.' },
      ],
    },
  ],
});

async function openAgent(name: string, steps: (page: Page, agentId: string) => Promise<void>, agentConfig: object = config()) {
  const t = await createTenant(suite.db);
  const user = await createUser(suite.db, 'owner', t.tenant.id);
  const agent = await suite.db.agent.create({ data: { tenantId: t.tenant.id, name, config: agentConfig } });
  const { page, close } = await openConsole(suite.browser, user.email, { failureName: 'agent-editor-failure' });
  try {
    await page.goto(apiUrl(`/admin/#/agents/${agent.id}`));
    await page.getByRole('button', { name: 'Save draft' }).waitFor();
    await steps(page, agent.id);
    await close();
  } catch (err) {
    await close(err);
    throw err;
  }
}

describe('the agent editor has no dead ends', () => {
  it('deleting a used field offers to remove its references, and the draft then publishes', async () => {
    await openAgent('Field Remover', async (page, agentId) => {
      await page.getByRole('tab', { name: 'Fields' }).click();
      // By its title: the stored config is jsonb, whose keys come back in its own order.
      const emailField = page.locator('[data-testid^="field-"]').filter({ hasText: 'Field “email”' });
      await emailField.getByRole('button', { name: 'Remove' }).first().click();

      const dialog = page.getByTestId('remove-field-dialog');
      await dialog.getByText('Flow “Hospedagem”, step “onde”: collects it').waitFor();
      await dialog.getByRole('button', { name: 'Remove the field and its use' }).click();
      await emailField.waitFor({ state: 'detached' });

      // The step no longer collects it, visibly or in the saved draft.
      await page.getByRole('tab', { name: 'Flows' }).click();
      const step = page.getByTestId('flow-0-step-0');
      await step.getByLabel('cidade', { exact: true }).waitFor();
      expect(await step.getByLabel(/^email/).count()).toBe(0);

      await saveDraft(page);
      await confirmPublish(page);
      await page.getByText('v1 live').waitFor();

      const published = await suite.db.agentVersion.findFirstOrThrow({ where: { agentId, version: 1 } });
      const saved = published.config as ReturnType<typeof config>;
      expect(Object.keys(saved.fields)).toEqual(['cidade']);
      expect(saved.flows[0].steps[0].collect).toEqual(['cidade']);
    });
  });

  it('an error on another tab is marked on that tab, which opens at the first error', async () => {
    await openAgent('Tab Marker', async (page) => {
      await page.getByRole('tab', { name: 'Flows' }).click();
      const prompt = page.getByTestId('flow-0-step-1').getByRole('textbox', { name: /^Prompt/ });
      await prompt.fill('');
      await page.getByRole('tab', { name: 'General' }).click();

      await page.getByRole('button', { name: 'Save draft' }).click();

      const flowsTab = page.getByTestId('tab-2');
      await page.locator('[data-testid="tab-2"][data-errors="1"]').waitFor();
      expect(await flowsTab.textContent()).toBe('Flows (1 error)');
      expect(await page.getByTestId('tab-0').getAttribute('data-errors')).toBe('0');
      // The Flows tab is open, at the prompt that needs a value.
      await page.locator('[data-testid="tab-2"][aria-selected="true"]').waitFor();
      await page.waitForFunction("document.activeElement?.getAttribute('name') === 'draft.flows.0.steps.1.prompt'");
      const box = await prompt.boundingBox();
      const viewport = page.viewportSize();
      expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height).toBe(true);

      // Fixed, the mark goes.
      await prompt.fill('Apresente o preço.');
      await page.locator('[data-testid="tab-2"][data-errors="0"]').waitFor();
      expect(await flowsTab.textContent()).toBe('Flows');
    });
  });

  it('a broken regex is refused at its input: the script rule the worker could not compile', async () => {
    const broken = config();
    broken.provider.scripted.rules = [{ call: 'speak', match: '(?i)preço', reply: 'Claro!' } as (typeof broken.provider.scripted.rules)[number]];
    await openAgent(
      'Broken Regex',
      async (page, agentId) => {
        await page.getByRole('tab', { name: 'Flows' }).click();
        await confirmPublish(page);
        await page.getByTestId('publish-error').waitFor();

        // The General tab opens, marked, at the script input, whose own helper text says what is wrong.
        await page.locator('[data-testid="tab-0"][aria-selected="true"][data-errors="1"]').waitFor();
        const script = page.getByRole('textbox', { name: /^Script rules \(JSON\)/ });
        await page.waitForFunction("document.querySelector('textarea[name=\"draft.provider.scriptedJson\"]')?.getAttribute('aria-invalid') === 'true'");
        const helperId = (await script.getAttribute('aria-describedby')) ?? '';
        const helper = (await page.locator(`[id="${helperId}"]`).textContent()) ?? '';
        expect(helper).toContain('Rule 1 of the scripted model has a pattern that is not a valid JavaScript regular expression');
        expect(helper).toContain('(?i) are not supported');
        // Written for a person: no exception class names.
        expect(helper).not.toMatch(/\w+Error\b/);
        expect(await suite.db.agentVersion.count({ where: { agentId } })).toBe(0);

        // Fixed at the input, the draft publishes.
        await script.fill(JSON.stringify({ rules: [{ call: 'speak', match: '[Pp]reço', reply: 'Claro!' }] }));
        await saveDraft(page);
        await confirmPublish(page);
        await page.getByText('v1 live').waitFor();
        expect(await suite.db.agentVersion.count({ where: { agentId } })).toBe(1);
      },
      broken,
    );
  });

  it('a stale "Not published" banner goes once its cause is fixed, and switching provider resets the model', async () => {
    // A draft saved before this editor existed: the step collects a field the agent no longer has.
    const stale = config();
    stale.flows[0].steps[0].collect = ['cidade', 'fone'];
    await openAgent(
      'Stale Banner',
      async (page) => {
        await confirmPublish(page);
        await page.getByTestId('publish-error').filter({ hasText: 'fone' }).waitFor();

        // The stale field stays listed at the step, marked, so it can be unticked.
        await page.getByRole('tab', { name: 'Flows' }).click();
        await page.getByTestId('flow-0-step-0').getByLabel(/^fone \(not a field of this agent/).click();
        await saveDraft(page);
        await page.getByTestId('publish-error').waitFor({ state: 'detached' });

        await page.getByRole('tab', { name: 'General' }).click();
        await choose(page, page.locator('[data-tab-panel="0"]'), 'Provider', 'Google Gemini');
        const model = page.getByRole('textbox', { name: /^Model/ });
        expect(await model.inputValue()).toBe('gemini-2.5-flash');
        // Its known models are offered; one click picks one.
        await page.getByTestId('known-models').getByRole('button', { name: 'gemini-2.5-pro' }).click();
        expect(await model.inputValue()).toBe('gemini-2.5-pro');
      },
      stale,
    );
  });
});
