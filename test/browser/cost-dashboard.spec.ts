import { conciergeAgentConfig } from '@switchboard/agent-config';
import { recordTurnUsage } from '@switchboard/db';
import { createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { openConsole } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';
import { waitForQuiet } from './support/quiet';

// The dashboard's cost in money (issue 25, docs/cost.md) in headless Chromium: cost by agent
// and by flow step from the roll-up, exact amounts, the 80% budget notices (the tenant's and an
// agent's own), the agent's budget field, and each step's share of the agent's cost in the flow
// editor and on its graph.
jest.setTimeout(300_000);

const suite = useConsoleSuite();

it("shows cost by agent and by step, the budget notice at 80%, and a step's share in the flow editor", async () => {
  const { db, browser } = suite;
  const t = await createTenant(db);
  await db.agent.update({ where: { id: t.agent.id }, data: { name: 'Concierge', config: JSON.parse(JSON.stringify(conciergeAgentConfig)) } });
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const line = { tenantId: t.tenant.id, agentId: t.agent.id, channelId: t.channel.id, day: today, provider: 'openai', model: 'gpt-4.1-mini' };
  await db.usageCostDaily.createMany({
    data: [
      { ...line, part: 'step', flowId: 'hospedagem', stepId: 'oferta', llmCalls: 4n, costMicros: 4_000_000n },
      { ...line, part: 'understand', llmCalls: 6n, costMicros: 4_500_000n },
    ],
  });
  await recordTurnUsage(db, {
    tenantId: t.tenant.id, agentId: t.agent.id, at: new Date(), llmCalls: 10, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
    queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
  });
  await db.usageDaily.updateMany({ where: { tenantId: t.tenant.id }, data: { costMicros: 8_500_000n, completedRuns: 2n } });
  await db.tenant.update({ where: { id: t.tenant.id }, data: { monthlyBudgetMicros: 10_000_000n } });
  await db.agent.update({ where: { id: t.agent.id }, data: { monthlyBudgetMicros: 10_000_000n } });
  const owner = await createUser(db, 'owner', t.tenant.id);

  const { page, close } = await openConsole(browser, owner.email, { failureName: 'cost-dashboard' });
  let failed: unknown;
  try {
    await page.getByTestId('cost-by-agent').getByText('Concierge').waitFor();
    await page.getByTestId('cost-total').getByText('$8.500000 in range').waitFor();
    await page.getByTestId('cost-per-resolved').getByText('$4.250000 per resolved conversation').waitFor();
    const steps = page.getByTestId('cost-by-step').getByTestId('cost-row');
    expect(await steps.allInnerTexts()).toEqual(['(understand)\t6\t$4.500000\t52.9%', 'hospedagem › oferta\t4\t$4.000000\t47.1%']);
    expect(await page.getByTestId('cost-by-agent').getByTestId('cost-row').allInnerTexts()).toEqual(['Concierge\t10\t$8.500000\t100.0%']);
    await page.getByTestId('budget-notice').getByText('80% of the monthly budget is spent ($8.500000 of $10.000000)').waitFor();
    await page.getByTestId('agent-budget-notice').getByText('Agent “Concierge” has spent 80% of its monthly budget ($8.500000 of $10.000000)').waitFor();

    // The flow editor shows the oferta step's share of the agent's cost, and no share for steps that cost nothing.
    await page.goto(page.url().replace(/#.*$/, `#/agents/${t.agent.id}`));
    // The agent's own budget: shown in the editor with its notice, changed by saving the draft.
    const budget = page.getByLabel('Monthly budget (USD)');
    expect(await budget.inputValue()).toBe('10.000000');
    await page.getByTestId('agent-budget-notice').getByText('80% of its monthly budget').waitFor();
    await budget.fill('20.5');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved').waitFor();
    expect((await db.agent.findUniqueOrThrow({ where: { id: t.agent.id } })).monthlyBudgetMicros).toBe(20_500_000n);

    await page.getByRole('tab', { name: 'Flows' }).click();
    await page.getByTestId('step-cost-share').getByText("47.1% of the agent's cost").waitFor();
    expect(await page.getByTestId('step-cost-share').count()).toBe(1);
    // The graph puts the same share on the step's node, and on no other.
    await page.getByTestId('graph-node-step-1').getByTestId('graph-node-cost').getByText("47.1% of the agent's cost").waitFor();
    expect(await page.getByTestId('graph-node-cost').count()).toBe(1);
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    await close(failed);
  }
});

it("shows a platform admin an agent's budget notice in its editor, and reads no quota while every tenant is shown", async () => {
  const { db, browser } = suite;
  const t = await createTenant(db);
  await db.agent.update({ where: { id: t.agent.id }, data: { name: 'Concierge', monthlyBudgetMicros: 10_000_000n } });
  await recordTurnUsage(db, {
    tenantId: t.tenant.id, agentId: t.agent.id, at: new Date(), llmCalls: 10, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0,
    queueWaitMs: 1, modelMs: 1, toolsMs: 0, commitMs: 1, totalMs: 3, outcomeCodes: [], deferred: false, failed: false,
  });
  await db.usageDaily.updateMany({ where: { tenantId: t.tenant.id }, data: { costMicros: 8_500_000n } });
  const admin = await createUser(db, 'platform_admin', null);

  const { page, close } = await openConsole(browser, admin.email, { failureName: 'cost-dashboard-admin' });
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/usage/quota') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  let failed: unknown;
  try {
    // No tenant picked: the agent's own tenant is the one asked.
    await page.goto(page.url().replace(/#.*$/, `#/agents/${t.agent.id}`));
    await page.getByTestId('agent-budget-notice').getByText('Agent “Concierge” has spent 80% of its monthly budget ($8.500000 of $10.000000)').waitFor();
    // Every tenant's dashboard has no one tenant's budget: it asks for none (it was refused, then retried).
    await page.goto(page.url().replace(/#.*$/, '#/'));
    await page.getByTestId('cost-total').waitFor();
    await waitForQuiet(page);
    expect(refused).toEqual([]);
    expect(await page.getByTestId('budget-notice').count()).toBe(0);
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    await close(failed);
  }
});
