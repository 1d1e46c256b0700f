import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminGet, adminSend, createTenant, createUser, login, unique } from '../integration/admin/support/admin-fixtures';
import { confirmPublish } from './support/agent-steps';
import { addChips, choose, openConsole, openList } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';

// The rest of the flow language in the console's flow editor, in a real browser against the real
// API: a collect step with a branch, an if step, a wait step with an else and a silence trigger,
// built with the inputs (no JSON typed); the engine refuses a wait that is not a duration, at
// that input; fixed, the published version holds exactly the FlowSpec that was entered.
jest.setTimeout(600_000);

const suite = useConsoleSuite({ screenshots: true });

/** What the inputs below enter, as the engine's FlowSpec. */
const ENTERED = {
  id: 'reserva',
  name: 'Reserva',
  on: [{ message: ['quero reservar'] }, { silence: '2h' }],
  steps: [
    { id: 'onde', kind: 'collect', collect: ['cidade'], branches: [{ when: 'Quer falar com um humano?', then: 'tchau' }] },
    { id: 'confere', kind: 'if', if: { equals: { hospedes: 2 }, known: ['cidade'] }, else: 'tchau' },
    { id: 'espera', kind: 'wait', wait: '24h', else: 'tchau' },
    { id: 'tchau', kind: 'say', say: 'Até logo!' },
  ],
};

async function setStep(page: Page, index: number, id: string, kind: RegExp): Promise<Locator> {
  if (index > 0) await page.getByTestId('flow-0').getByRole('button', { name: 'Add step', exact: true }).click();
  const step = page.getByTestId(`flow-0-step-${index}`);
  await step.getByLabel('Step id').fill(id);
  await choose(page, step, 'Kind', kind);
  return step;
}

/**
 * Saves the draft and waits until the API holds it with the wait step's duration `waitFor`
 * (reading the draft back, not the "updated" notice, which a busy machine can queue behind
 * the publish error's).
 */
/** Polls `path` until it answers 200; the answer. */
async function untilFound(token: string, path: string): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    const res = await adminGet(token, path);
    if (res.status === 200) return res.body;
    if (attempt === 120) throw new Error(`${path} still answers ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function saveDraftWithWait(page: Page, token: string, agentId: string, waitFor: string): Promise<void> {
  await page.getByRole('button', { name: 'Save draft' }).click();
  for (let attempt = 0; ; attempt += 1) {
    const agent = await adminGet(token, `/v1/admin/agents/${agentId}`);
    const flows = (agent.body as { config: { flows: { steps: { wait?: unknown }[] }[] } }).config.flows;
    if (flows[0]?.steps[2]?.wait === waitFor) break;
    if (attempt === 120) throw new Error(`The draft was not saved with wait "${waitFor}": ${JSON.stringify(flows)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // The form reloads the saved record: Publish is enabled once nothing is unsaved.
  await page.getByRole('button', { name: 'Publish' }).and(page.locator(':enabled')).waitFor();
}

/** The flow of ENTERED, with the wait written `waitFor`; saved as the draft. */
async function buildFlow(page: Page, token: string, agentId: string, waitFor: string): Promise<void> {
  await page.getByRole('tab', { name: 'Flows' }).click();
  await page.getByRole('button', { name: 'Add flow' }).click();
  const flow = page.getByTestId('flow-0');
  await flow.getByLabel('Flow id').fill('reserva');
  await flow.getByLabel('Name', { exact: true }).fill('Reserva');

  await addChips(page.getByTestId('flow-0-trigger-0'), 'Example phrases', ['quero reservar']);
  await flow.getByRole('button', { name: 'Add trigger' }).click();
  const silence = page.getByTestId('flow-0-trigger-1');
  await choose(page, silence, 'Starts on', /^The customer is silent/);
  await silence.getByRole('textbox', { name: 'Silent for' }).fill('2h');

  // Steps first: targets are picked from the step ids.
  const onde = await setStep(page, 0, 'onde', /^Collect/);
  await onde.getByLabel('cidade', { exact: true }).check();
  const confere = await setStep(page, 1, 'confere', /^If/);
  const espera = await setStep(page, 2, 'espera', /^Wait/);
  const tchau = await setStep(page, 3, 'tchau', /^Say/);
  await tchau.getByRole('textbox', { name: /^Text to send/ }).fill('Até logo!');

  await onde.getByRole('button', { name: 'Add branch' }).click();
  const branch = page.getByTestId('flow-0-step-0-branch-0');
  await branch.getByRole('textbox', { name: /^When the reply says/ }).fill('Quer falar com um humano?');
  await choose(page, branch, 'Then', 'Go to “tchau”');

  await confere.getByRole('button', { name: 'Compare a field' }).click();
  const equals = page.getByTestId('flow-0-step-1-if-equals-0');
  await choose(page, equals, 'Field', 'hospedes');
  await equals.getByRole('textbox', { name: 'Value' }).fill('2');
  await confere.getByLabel('cidade', { exact: true }).check();
  await choose(page, confere, 'Otherwise', 'Go to “tchau”');

  await espera.getByRole('textbox', { name: 'Wait', exact: true }).fill(waitFor);
  await choose(page, espera, 'If the customer replies first', 'Go to “tchau”');
  await saveDraftWithWait(page, token, agentId, waitFor);
}

describe('the flow editor, end to end', () => {
  it('builds branches, if, wait and silence with inputs; shows a bad duration at its input; publishes the FlowSpec as entered', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const token = await login(owner.email);
    const name = unique('Reservas');
    const created = await adminSend(token, 'POST', '/v1/admin/agents', {
      name,
      config: {
        provider: { kind: 'scripted', model: 'script' },
        fields: { cidade: { type: 'string' }, hospedes: { type: 'integer' } },
        flows: [],
        tools: [],
      },
    });
    expect(created.status).toBe(201);
    const agentId = (created.body as { id: string }).id;

    const { page, close } = await openConsole(suite.browser, owner.email);
    try {
      await openList(page, 'Agents');
      await page.getByRole('row').filter({ hasText: name }).click();
      await buildFlow(page, token, agentId, '24 horas');

      await confirmPublish(page);
      await page.getByTestId('publish-error').waitFor();
      // The engine's refusal, at the wait's duration input (and in its step).
      const espera = page.getByTestId('flow-0-step-2');
      const duration = espera.getByRole('textbox', { name: 'Wait', exact: true });
      await espera.locator('.Mui-error').filter({ hasText: 'is not a duration' }).first().waitFor();
      expect(await duration.getAttribute('aria-invalid')).toBe('true');
      // The message is the duration input's own helper text.
      const helperId = (await duration.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${helperId}"]`).textContent()).toContain('"24 horas" is not a duration');
      await espera.getByTestId('publish-error-here').waitFor();
      await expect(page.getByTestId('flow-0-step-1').getByTestId('publish-error-here').count()).resolves.toBe(0);
      expect((await adminGet(token, `/v1/admin/agents/${agentId}/versions`)).body).toEqual([]);

      await duration.fill('24h');
      await saveDraftWithWait(page, token, agentId, '24h');
      await confirmPublish(page);
      const version = (await untilFound(token, `/v1/admin/agents/${agentId}/versions/1`)) as { config: { flows: unknown[] } };
      expect(version.config.flows).toStrictEqual([ENTERED]);
      await page.getByTestId('publish-error').waitFor({ state: 'detached' });
      await page.screenshot({ path: join(SCREENSHOTS, 'flow-editor-steps.png'), fullPage: true });
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  });
});
