import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiUrl, PASSWORD } from '../../integration/admin/support/admin-fixtures';

const FAILURES = join(__dirname, '..', '..', '..', '.tmp');

/** Fills in and sends the console's sign-in form at `${baseUrl}/admin/` (the suite's API by default). */
export async function signIn(page: Page, email: string, baseUrl?: string): Promise<void> {
  await page.goto(baseUrl ? `${baseUrl}/admin/` : apiUrl('/admin/'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface OpenConsoleOptions {
  /** The API serving the console, when not the suite's (a test's own API process). */
  baseUrl?: string;
  /** The failure screenshot's name before `-<time>.png`. */
  failureName?: string;
}

/**
 * A fresh browser context logged into the console as `email`; waits for the dashboard.
 * `close(failed)` saves a screenshot under .tmp/ first when the test failed, to see why.
 */
export async function openConsole(
  browser: Browser,
  email: string,
  { baseUrl, failureName = 'console-failure' }: OpenConsoleOptions = {},
): Promise<{ page: Page; close: (failed?: unknown) => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  // Generous: the machine may be busy with other suites, and the first load parses ~1 MB of JS.
  page.setDefaultTimeout(60_000);
  await signIn(page, email, baseUrl);
  await page.getByTestId('stat-sessions').waitFor();
  const close = async (failed?: unknown) => {
    if (failed) {
      mkdirSync(FAILURES, { recursive: true });
      await page.screenshot({ path: join(FAILURES, `${failureName}-${Date.now()}.png`), fullPage: true }).catch(() => undefined);
    }
    await context.close();
  };
  return { page, close };
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

/**
 * Opens a list from the menu and waits until it has loaded: the list syncs its query into the
 * address once mounted, which would undo a navigation made before that (e.g. to Create).
 */
export async function openList(page: Page, menu: string): Promise<void> {
  const item = page.getByRole('menuitem', { name: menu });
  const target = (await item.getAttribute('href'))?.replace(/^#/, '') ?? '';
  const here = new URL(page.url()).hash.replace(/^#/, '').split('?')[0];
  // The previous page stays on screen while the next route's code loads (the address has
  // already changed), so a following click could land on the old table: wait for it to go.
  const previous = here !== target ? await page.locator('.RaDatagrid-table').elementHandles() : [];
  await item.click();
  if (target) await page.waitForURL((url) => url.hash.replace(/^#/, '').split('?')[0] === target);
  await Promise.all(previous.map((el) => el.waitForElementState('hidden')));
  await page.locator('.RaList-main .RaDatagrid-table, [class*="RaEmpty"], [class*="RaList-noResults"]').first().waitFor();
}

/**
 * Waits until each dashboard chart has drawn. Charts load when they come near the screen
 * (docs/console.md, "Performance"), so each is scrolled to first.
 */
export async function chartsDrawn(page: Page, ...testIds: string[]): Promise<void> {
  for (const id of testIds) {
    await page.getByTestId(id).scrollIntoViewIfNeeded();
    await page.getByTestId(id).locator('canvas').first().waitFor();
  }
}
