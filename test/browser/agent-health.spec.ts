import type { Page } from 'playwright-core';
import { createSession, createTenant, createTurn, createUser } from '../integration/admin/support/admin-fixtures';
import { openConsole, openList } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';

// An agent's failures on the agents list, without opening a transcript: the list is already
// open when the failing turns are committed, and the health column catches up on its own. The
// dashboard counts them by code, each code linking to the turns list filtered by it.
jest.setTimeout(180_000);

const suite = useConsoleSuite();

const failed = (code: string, message: string) => ({ kind: 'idle', status: 'failed', code, message, at: new Date().toISOString() });
const deferred = (code: string, message: string) => ({ kind: 'idle', status: 'deferred', code, message, at: new Date().toISOString() });
const spoke = () => ({ kind: 'idle', status: 'ok', code: 'spoke', at: new Date().toISOString() });

describe('agent health in the console', () => {
  it("shows an agent's failures on the agents list within a minute, and flags the session", async () => {
    const t = await createTenant(suite.db);
    const user = await createUser(suite.db, 'owner', t.tenant.id);
    await suite.db.agent.update({ where: { id: t.agent.id }, data: { name: 'Health Concierge' } });
    const session = await createSession(suite.db, t, { externalKey: 'health-session-1' });
    await createTurn(suite.db, t, session.id, { llmCalls: 1, outcomes: [spoke()] });

    const { page, close } = await openConsole(suite.browser, user.email, { failureName: 'agent-health-failure' });
    try {
      await openList(page, 'Agents');
      const row = page.getByRole('row').filter({ hasText: 'Health Concierge' });
      await row.getByTestId('agent-health').filter({ hasText: 'healthy · 1 turns' }).waitFor();

      // The worker commits two failing turns while the list is on screen.
      await createTurn(suite.db, t, session.id, { llmCalls: 1, outcomes: [deferred('provider-unavailable', 'The model answered 500')] });
      await createTurn(suite.db, t, session.id, { llmCalls: 0, outcomes: [failed('agent-unavailable', 'Rule 1: the regex (?i)preço does not compile')] });

      const health = row.locator('[data-testid="agent-health"][data-status="failing"]');
      await health.waitFor({ timeout: 60_000 });
      await expectText(health, ['67% failing · 1 failed, 1 deferred of 3', 'Last failure: agent-unavailable']);

      // The agent page says the same, with the failure's text.
      await row.click();
      await page.getByTestId('agent-health-panel').filter({ hasText: 'Rule 1: the regex (?i)preço does not compile' }).waitFor();
      await expectText(page.getByTestId('agent-health-panel'), ['67% failing', 'Last failure: agent-unavailable']);

      // The sessions list flags the session whose last turn failed.
      await openList(page, 'Sessions');
      const sessionRow = page.getByRole('row').filter({ hasText: 'health-session-1' });
      await sessionRow.getByTestId('last-turn-failure').filter({ hasText: 'failed · agent-unavailable' }).waitFor();

      // The dashboard counts failed and deferred turns by code, and links each code to its turns.
      await page.getByRole('menuitem', { name: 'Dashboard' }).click();
      const byCode = page.getByTestId('failures-by-code');
      await byCode.getByTestId('failure-deferred:provider-unavailable').filter({ hasText: 'provider-unavailable' }).waitFor();
      const failedRow = byCode.getByTestId('failure-failed:agent-unavailable');
      await expectText(failedRow, ['agent-unavailable', 'failed', '1']);
      await failedRow.getByRole('link', { name: 'See turns' }).click();
      await page.waitForURL((url) => url.hash.startsWith('#/turns'));
      // The turns list opens filtered by that code: the one failed turn, not the other two.
      await page.getByRole('textbox', { name: 'Outcome code' }).and(page.locator('[value="agent-unavailable"]')).waitFor();
      const rows = page.locator('.RaDatagrid-table tbody tr');
      await rows.filter({ hasText: 'agent-unavailable' }).first().waitFor();
      expect(await rows.count()).toBe(1);
      await close();
    } catch (err) {
      await close(err);
      throw err;
    }
  });
});

async function expectText(locator: ReturnType<Page['locator']>, parts: string[]): Promise<void> {
  await locator.waitFor();
  const text = await locator.textContent();
  for (const part of parts) expect(text).toContain(part);
}
