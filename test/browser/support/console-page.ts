import type { Browser, Locator, Page } from 'playwright-core';
import { apiUrl, PASSWORD } from '../../integration/admin/support/admin-fixtures';

/** A fresh browser context logged into the console as `email`; waits for the dashboard. */
export async function openConsole(browser: Browser, email: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  // Generous: the machine may be busy with other suites, and the first load parses ~1 MB of JS.
  page.setDefaultTimeout(60_000);
  await page.goto(apiUrl('/admin/'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('stat-sessions').waitFor();
  return { page, close: () => context.close() };
}

/** Picks `option` in the MUI select labelled `label` inside `scope`. */
export async function choose(page: Page, scope: Locator | Page, label: string | RegExp, option: string | RegExp): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
  // The listbox closes on pick; wait so the next click does not land on its backdrop.
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** Adds chips to a ChipsInput (type, Enter). */
export async function addChips(scope: Locator, label: string, values: string[]): Promise<void> {
  const input = scope.getByLabel(label, { exact: true });
  for (const v of values) {
    await input.fill(v);
    await input.press('Enter');
  }
}

/** Waits for a react-admin notification containing `text`. */
export async function notified(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor();
}
