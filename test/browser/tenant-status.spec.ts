import { createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { choose, notified, openConsole, openList, signIn } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';

// Issue 22 §6: a platform admin suspends a tenant in the console; its owner can no longer sign
// in and is told why; reactivated, the owner signs in again.
jest.setTimeout(240_000);

const suite = useConsoleSuite();

async function setStatusInConsole(page: import('playwright-core').Page, tenantName: string, status: 'Active' | 'Suspended'): Promise<void> {
  await openList(page, 'Tenants');
  // The shared test database holds many tenants: find this one by name, not by page. The search
  // reaches the address after a debounce; a row click made before it would be undone.
  await page.getByPlaceholder('Name').fill(tenantName);
  await page.waitForURL((url) => decodeURIComponent(url.hash).includes(tenantName));
  await page.getByRole('row').filter({ hasText: tenantName }).click();
  await page.getByRole('button', { name: 'Save' }).waitFor();
  await choose(page, page, /^Status/, status);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('row').filter({ hasText: tenantName }).getByText(status.toLowerCase(), { exact: true }).waitFor();
}

describe('tenant status in the console', () => {
  it('lets a platform admin suspend a tenant, whose owner is then refused at sign-in, and reactivate it', async () => {
    const admin = await createUser(suite.db, 'platform_admin', null);
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const { page, close } = await openConsole(suite.browser, admin.email, { failureName: 'tenant-status-failure' });
    const ownerContext = await suite.browser.newContext();
    let failed: unknown;
    try {
      await setStatusInConsole(page, t.tenant.name, 'Suspended');
      expect((await suite.db.tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).status).toBe('suspended');

      const ownerPage = await ownerContext.newPage();
      ownerPage.setDefaultTimeout(60_000);
      await signIn(ownerPage, owner.email);
      await notified(ownerPage, /tenant is suspended/);

      await setStatusInConsole(page, t.tenant.name, 'Active');
      await signIn(ownerPage, owner.email);
      await ownerPage.getByTestId('stat-sessions').waitFor();
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      await ownerContext.close();
      await close(failed);
    }
  });
});
