import { DEV_AUTH_SECRET } from '@switchboard/config';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { openConsole, openList } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';

// The console's login session in a real browser: an expired access token is refreshed through
// the HttpOnly cookie without the user noticing, and logging out ends the session on the server.

jest.setTimeout(240_000);

const suite = useConsoleSuite();

/** An access token for the user's live session that expired a minute ago. */
async function expiredToken(userId: string): Promise<string> {
  const live = await suite.db.authSession.findFirstOrThrow({ where: { userId, revokedAt: null } });
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: live.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer('switchboard')
    .setAudience('switchboard-console')
    .setIssuedAt(now - 1000)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(process.env.AUTH_SECRET || DEV_AUTH_SECRET));
}

/** Waits until the console holds another access token than `stale` (the page's CSP forbids waitForFunction's eval). */
async function tokenChange(page: Page, stale: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await page.evaluate("localStorage.getItem('switchboard.accessToken')")) === stale) {
    if (Date.now() > deadline) throw new Error('the console kept the expired access token for 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the console session', () => {
  it('refreshes an expired access token transparently, keeps the refresh token out of reach of scripts, and logs out on the server', async () => {
    const t = await createTenant(suite.db);
    const user = await createUser(suite.db, 'owner', t.tenant.id);
    const { page, close } = await openConsole(suite.browser, user.email);
    let failed: unknown;
    try {
      // The refresh token is an HttpOnly cookie: page scripts see no trace of it.
      await expect(page.evaluate('document.cookie')).resolves.not.toContain('sb_refresh');
      const cookies = await page.context().cookies();
      expect(cookies.find((c) => c.name === 'sb_refresh')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/admin/auth' });

      const stale = await expiredToken(user.id);
      // A string, as the test compiles without the DOM types.
      await page.evaluate(`localStorage.setItem('switchboard.accessToken', ${JSON.stringify(stale)})`);
      await openList(page, 'Sessions');
      // The list's read was refused (401), refreshed and retried: a new access token, still logged in.
      await tokenChange(page, stale);
      expect(page.url()).not.toContain('#/login');
      const fresh = await page.evaluate("localStorage.getItem('switchboard.accessToken')");
      expect(fresh).toEqual(expect.any(String));
      expect(fresh).not.toBe(stale);
      expect(await suite.db.authSession.count({ where: { userId: user.id } })).toBe(2);
      expect(await suite.db.authSession.count({ where: { userId: user.id, revokedAt: null } })).toBe(1);

      await page.getByRole('button', { name: 'Profile' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await suite.db.authSession.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
      expect((await page.context().cookies()).find((c) => c.name === 'sb_refresh')).toBeUndefined();
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      await close(failed);
    }
  });
});
