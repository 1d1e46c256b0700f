import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { addChips, choose, notified, openList } from './console-page';

// The offline model: the understand call routes to the flow, every speak call asks.
export const SCRIPT = JSON.stringify({
  rules: [
    { call: 'understand', flows: { hospedagem: 90 } },
    { call: 'speak', reply: 'Claro! Em qual cidade e para quantas pessoas?' },
  ],
});

async function addStep(page: Page, index: number, id: string, kind: RegExp) {
  if (index > 0) await page.getByTestId('flow-0').getByRole('button', { name: 'Add step' }).last().click();
  const step = page.getByTestId(`flow-0-step-${index}`);
  await step.getByLabel('Step id').fill(id);
  await choose(page, step, 'Kind', kind);
  return step;
}

/**
 * From the Agents list: creates an agent on the scripted provider with fields `cidade` and
 * `hospedes`, tools `preco` and `reservar` allowed, and a flow of three steps whose second step
 * names `reservar` after the agent stopped allowing it. Saves the draft; ends on the edit page.
 */
export async function buildAgentWithStaleStepTool(page: Page, name: string): Promise<void> {
  await openList(page, 'Agents');
  await page.getByRole('link', { name: 'Create' }).click();
  // The list (whose search box is also named "Name") may linger a moment after the address changes.
  await page.getByRole('button', { name: 'Save' }).waitFor();
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('textbox', { name: /^Model/ }).fill('concierge-script');
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
  await collect.getByLabel('cidade', { exact: true }).check();
  await collect.getByLabel('hospedes', { exact: true }).check();
  const offer = await addStep(page, 1, 'oferta', /^Prompt/);
  await offer.getByRole('textbox', { name: /^Prompt/ }).fill('Apresente o preço da diária.');
  await offer.getByLabel('preco', { exact: true }).check();
  await offer.getByLabel('reservar', { exact: true }).check();
  const thanks = await addStep(page, 2, 'obrigado', /^Say/);
  await thanks.getByRole('textbox', { name: /^Text to send/ }).fill('Obrigado pelo contato!');

  // The agent stops allowing `reservar`, which the second step still names.
  await page.getByRole('tab', { name: 'Tools & behaviour' }).click();
  await page.getByLabel(/^reservar — code/).uncheck();
  await saveDraft(page);
}

export async function saveDraft(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save draft' }).click();
  await notified(page, 'Draft saved');
}

/** Publish, then the confirmation dialog's Publish (with a note when given). */
export async function confirmPublish(page: Page, note?: string): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (note) await dialog.getByLabel('Note (optional)').fill(note);
  await dialog.getByRole('button', { name: /^(Publish|Test again and publish)$/ }).click();
}

/** Publishes; expects the engine to refuse the second step's tool and shows it there. */
export async function publishAndSeeStepError(page: Page, screenshots: string): Promise<string> {
  await confirmPublish(page);
  // The engine's message, in the step it concerns (the Flows tab opens by itself).
  const error = page.getByTestId('flow-0-step-1').getByTestId('publish-error-here');
  await error.waitFor();
  await page.getByTestId('publish-error').waitFor();
  await page.screenshot({ path: join(screenshots, 'flow-editor.png'), fullPage: true });
  return (await error.textContent()) ?? '';
}

/** Unticks the stale tool at the step, saves and publishes version 1. */
export async function fixAndPublish(page: Page): Promise<void> {
  // Unticked, the stale choice disappears (it is listed only while picked): click, not uncheck.
  const stale = page.getByTestId('flow-0-step-1').getByLabel(/^reservar \(not in the agent's allow-list\)/);
  await stale.click();
  await stale.waitFor({ state: 'detached' });
  await saveDraft(page);
  await confirmPublish(page);
  await notified(page, 'Version 1 published');
}

/** Chats with the agent in the playground (its saved draft); returns the agent's reply text. */
export async function chatInPlayground(page: Page, agentName: string, text: string): Promise<string> {
  await page.getByRole('menuitem', { name: 'Playground' }).click();
  await choose(page, page, 'Agent', new RegExp(`^${agentName}`));
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('playground-agent').first();
  await reply.waitFor();
  return (await reply.textContent()) ?? '';
}
