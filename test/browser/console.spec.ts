import { join } from 'node:path';
import { recordTurnUsage } from '@switchboard/db';
import type { Page } from 'playwright-core';
import { apiUrl, createSession, createTenant, createTurn, createUser, unique } from '../integration/admin/support/admin-fixtures';
import { openConsole, openList, signIn } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

const suite = useConsoleSuite({ screenshots: true });
let page: Page;

beforeAll(async () => {
  page = await suite.browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Generous: the machine may be busy with other suites, and the first load parses ~1 MB of JS.
  page.setDefaultTimeout(60_000);
});

describe('the console in a browser', () => {
  it('logs in, lists the sessions, and shows a session transcript in order', async () => {
    const t = await createTenant(suite.db);
    const user = await createUser(suite.db, 'owner', t.tenant.id);
    const externalKey = unique('whatsapp-5541');
    const session = await createSession(suite.db, t, {
      externalKey,
      texts: ['Quero um quarto em Curitiba', 'Claro! Para quais datas?', 'De 10 a 12 de março'],
    });
    await createTurn(suite.db, t, session.id, { llmCalls: 7, inputTokens: 1234, outputTokens: 56, outcomeCodes: ['answered'] });
    // The worker adds each turn to the daily roll-up in its commit; the dashboard's totals read it.
    await recordTurnUsage(suite.db, {
      tenantId: t.tenant.id, agentId: t.agent.id, sessionId: session.id, at: new Date(), llmCalls: 7, inputTokens: 1234, outputTokens: 56,
      cachedInputTokens: 0, queueWaitMs: 0, modelMs: 100, toolsMs: 0, commitMs: 5, totalMs: 120, outcomeCodes: ['answered'], deferred: false, failed: false,
    });

    await signIn(page, user.email);

    // The dashboard reads /v1/admin/stats for this tenant: one session, three messages, 7 LLM calls.
    await page.getByTestId('stat-sessions').getByText('1', { exact: true }).waitFor();
    await page.getByTestId('stat-messages').getByText('3', { exact: true }).waitFor();
    await page.getByTestId('stat-llmCalls').getByText('7', { exact: true }).waitFor();

    await page.getByRole('menuitem', { name: 'Sessions' }).click();
    const row = page.getByRole('row').filter({ hasText: externalKey });
    await row.waitFor();
    expect(await row.textContent()).toContain('active');
    await page.screenshot({ path: join(SCREENSHOTS, 'sessions.png') });

    await row.click();
    const transcript = page.getByTestId('transcript');
    await transcript.waitFor();
    await expect(transcript.locator('p').allTextContents()).resolves.toEqual([
      'Quero um quarto em Curitiba',
      'Claro! Para quais datas?',
      'De 10 a 12 de março',
    ]);
    await expect(page.getByTestId('message-outbound').count()).resolves.toBe(1);
    const turn = page.getByTestId('turns').getByRole('row').filter({ hasText: 'scripted-model' });
    await turn.waitFor();
    const cells = await turn.getByRole('cell').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['7', '1,234', '56', 'answered']));

    // The Messages list names each message's session through a reference (react-admin getMany).
    await page.getByRole('menuitem', { name: 'Messages' }).click();
    const reply = page.getByRole('row').filter({ hasText: 'Claro! Para quais datas?' });
    await reply.waitFor();
    await reply.getByText(externalKey).waitFor();
    await expect(page.getByRole('row').filter({ hasText: externalKey }).count()).resolves.toBe(3);

    // Logging out forgets the token: the console is back at the login form.
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // A string, as the test compiles without the DOM types.
    await expect(page.evaluate("localStorage.getItem('switchboard.accessToken')")).resolves.toBeNull();
  }, 240_000);

  it('refuses a wrong password with the message from the API', async () => {
    const context = await suite.browser.newContext();
    const fresh = await context.newPage();
    fresh.setDefaultTimeout(60_000);
    try {
      await fresh.goto(apiUrl('/admin/'));
      await fresh.getByLabel('Email').fill('nobody-here@example.test');
      await fresh.getByLabel('Password').fill('wrong password');
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.getByText('Email or password is wrong.').waitFor();
      expect(fresh.url()).toContain('/admin/#/login');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows a viewer no create, edit or publish controls', async () => {
    const t = await createTenant(suite.db);
    const viewer = await createUser(suite.db, 'viewer', t.tenant.id);
    const { page, close } = await openConsole(suite.browser, viewer.email);
    try {
      await openList(page, 'Agents');
      await page.getByRole('cell', { name: 'Agent', exact: true }).click();
      await page.waitForURL(/#\/agents\/[^/]+\/show/);
      await page.getByText('Draft config').waitFor();
      await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Publish' }).count()).resolves.toBe(0);

      await openList(page, 'Channels');
      const web = page.getByRole('cell', { name: 'Web', exact: true });
      await web.waitFor();
      await expect(page.getByRole('link', { name: 'Create' }).count()).resolves.toBe(0);
      await web.click();
      await page.getByTestId('api-keys').waitFor();
      await expect(page.getByRole('button', { name: 'Create API key' }).count()).resolves.toBe(0);
      await expect(page.getByRole('menuitem', { name: 'Audit log' }).count()).resolves.toBe(0);
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  }, 180_000);
});
