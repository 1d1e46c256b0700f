import { readFileSync } from 'node:fs';
import { recordTurnUsage } from '@switchboard/db';
import type { Locator, Page } from 'playwright-core';
import { apiUrl, createSession, createTenant, createTurn, createUser } from '../integration/admin/support/admin-fixtures';
import { openConsole } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';
import { waitForQuiet } from './support/quiet';

// Issue 22 §7: axe-core finds no serious or critical violation on any page of the console. The
// pages are found the way a user finds them: every item of the menu (react-admin lists one per
// resource the role may open, plus the custom routes), then each list's Create page and the
// page its first row opens, and that page's Edit. An owner walks the tenant's pages, a platform
// admin the platform's (tenants, model prices).
jest.setTimeout(600_000);

const suite = useConsoleSuite();
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  page: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on what the page shows now. */
async function audit(page: Page, label: string): Promise<Finding[]> {
  if (process.env.AXE_PROGRESS) process.stderr.write(`axe: ${new Date().toISOString().slice(11, 19)} ${label}\n`);
  // Once per document: the walk's hash navigations keep the page, and axe with it.
  if (await page.evaluate(`typeof window.axe === 'undefined'`)) await page.evaluate(AXE_SOURCE);
  // A string: this file is compiled without the DOM's types.
  const violations = await page.evaluate<{ id: string; impact: string; help: string; targets: string[] }[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ page: label, ...v }));
}

/** Waits until the route's page has drawn its data (support/quiet.ts). */
async function settle(page: Page): Promise<void> {
  await page.locator('#main-content').waitFor();
  await waitForQuiet(page, { quietMs: 300, minMs: 600, timeoutMs: 10_000 });
}

const hashOf = (page: Page) => new URL(page.url()).hash;
/** The first matching link's address, or null at once when there is none. */
const hrefOf = async (links: Locator) => ((await links.count()) ? links.first().getAttribute('href') : null);

/** Every page reachable from the menu, its lists' Create pages, first records and their Edit pages; audited once each. */
async function walk(page: Page, findings: Finding[], seen: Set<string>): Promise<void> {
  const visit = async (hash: string) => {
    if (seen.has(hash)) return false;
    seen.add(hash);
    await page.goto(apiUrl(`/admin/${hash}`));
    await settle(page);
    findings.push(...(await audit(page, hash)));
    return true;
  };
  const menu = await page.getByRole('menuitem').evaluateAll((items) => items.map((a) => a.getAttribute('href')).filter((h): h is string => !!h && h.startsWith('#')));
  expect(menu.length).toBeGreaterThan(5);
  for (const item of menu) {
    if (!(await visit(item))) continue;
    const create = await hrefOf(page.locator('#main-content a[href$="/create"]'));
    // Body rows only (the header row has the same class), and only rows that open something:
    // clicking one that does not waited out the navigation's timeout for nothing.
    const row = page.locator('#main-content tbody.RaDatagrid-tbody tr.RaDatagrid-row.RaDatagrid-clickableRow').first();
    if (await row.count()) {
      await row.click();
      // The row opens its record, or expands in place (then the list is the page, audited already).
      await Promise.race([
        page.waitForURL((url) => url.hash !== item && !url.hash.startsWith(`${item}?`), { timeout: 5_000 }),
        page.locator('#main-content .RaDatagrid-expandedPanel').first().waitFor({ timeout: 5_000 }),
      ]).catch(() => undefined);
      const record = hashOf(page);
      if (record !== item && !record.startsWith(`${item}?`) && !seen.has(record)) {
        seen.add(record);
        await settle(page);
        findings.push(...(await audit(page, record)));
        const edit = await hrefOf(page.locator(`#main-content a[href$="${record.replace(/\/show$/, '')}"]`));
        if (edit && edit !== record) await visit(edit);
      }
    }
    if (create) await visit(create);
  }
}

describe('console accessibility (axe-core)', () => {
  it('finds no serious or critical violation, and no refused API call, on the login page or any page of an owner or a platform admin', async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    const platform = await createUser(suite.db, 'platform_admin', null);
    const session = await createSession(suite.db, t, { texts: ['Hello', 'Hi! How can I help?'] });
    await createTurn(suite.db, t, session.id, { llmCalls: 1, inputTokens: 100, outputTokens: 20, outcomeCodes: ['answered'] });
    await recordTurnUsage(suite.db, {
      tenantId: t.tenant.id, agentId: t.agent.id, sessionId: session.id, at: new Date(), llmCalls: 1, inputTokens: 100, outputTokens: 20,
      cachedInputTokens: 0, queueWaitMs: 0, modelMs: 40, toolsMs: 0, commitMs: 5, totalMs: 50, outcomeCodes: ['answered'], deferred: false, failed: false,
    });

    const findings: Finding[] = [];
    // A page the menu offers makes no call the API refuses: the console must not ask for what the
    // role may not read, nor fail quietly behind a spinner (a platform admin's quota read did).
    const refused: string[] = [];
    let audited = 1;

    const anonymous = await suite.browser.newPage();
    await anonymous.goto(apiUrl('/admin/#/login'));
    await anonymous.getByLabel('Email').waitFor();
    findings.push(...(await audit(anonymous, '#/login')));
    await anonymous.close();

    for (const email of [owner.email, platform.email]) {
      const { page, close } = await openConsole(suite.browser, email, { failureName: 'axe-failure' });
      page.on('response', (r) => {
        const { pathname } = new URL(r.url());
        if (r.status() >= 400 && pathname.startsWith('/v1/')) refused.push(`${email.split('-')[0]}: ${r.status()} ${r.request().method()} ${pathname}`);
      });
      try {
        findings.push(...(await audit(page, `#/ (dashboard, ${email.split('-')[0]})`)));
        // Each role walks every page it can open: a platform admin's lists have Create and Edit
        // where an owner's have none (model prices), and show every tenant's rows.
        const seen = new Set<string>();
        await walk(page, findings, seen);
        audited += seen.size;
        console.log(`axe-core audited as ${email.split('-')[0]}:\n${[...seen].join('\n')}`);
      } finally {
        await close();
      }
    }

    expect(audited).toBeGreaterThan(30);
    expect(findings).toEqual([]);
    expect(refused).toEqual([]);
  });
});
