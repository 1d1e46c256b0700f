import { join } from 'node:path';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { apiUrl, createTenant, createUser } from '../integration/admin/support/admin-fixtures';
import { eventually } from '../integration/worker/support/private-api';
import { confirmPublish } from './support/agent-steps';
import { openConsole } from './support/console-page';
import { SCREENSHOTS, useConsoleSuite } from './support/console-suite';

// Issue 22's flow graph acceptance in Chromium: the Concierge's flow drawn beside its form — its
// trigger, three steps and the end, joined by labelled edges — loaded as its own chunk; clicking a
// step node opens that step in the form; the engine's publish refusal shows on the node it names.
jest.setTimeout(180_000);

const suite = useConsoleSuite({ screenshots: true });

describe('the flow graph', () => {
  it("draws the Concierge's flow, opens a step from its node, and shows a publish error on its node", async () => {
    const t = await createTenant(suite.db);
    const owner = await createUser(suite.db, 'owner', t.tenant.id);
    // The Concierge, except that its allow-list is empty: its second step's `preco` tool is refused.
    const config = { ...conciergeAgentConfig, tools: [] };
    const agent = await suite.db.agent.create({ data: { tenantId: t.tenant.id, name: 'Concierge', config: config as unknown as Prisma.InputJsonValue } });
    const { page, close } = await openConsole(suite.browser, owner.email, { failureName: 'flow-graph-failure' });
    try {
      // The graph library is a chunk of its own: the first screen does not load it, the editor does.
      const loaded = async () => (await page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")) as string[];
      const graphChunk = (urls: string[]) => urls.some((u) => /\/FlowGraphView-[^/]*\.js$/.test(u));
      expect(graphChunk(await loaded())).toBe(false);
      await page.goto(apiUrl(`/admin/#/agents/${agent.id}`));
      await page.getByRole('button', { name: 'Save draft' }).waitFor();
      await page.getByRole('tab', { name: 'Flows' }).click();

      const graph = page.getByTestId('flow-0-graph');
      await graph.getByTestId('graph-node-step-2').waitFor();
      expect(graphChunk(await loaded())).toBe(true);

      const nodes = graph.locator('[data-testid^="graph-node-"][data-kind]');
      const drawn = await nodes.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.querySelector('h6, .MuiTypography-subtitle2')?.textContent}`));
      expect(drawn.sort()).toEqual(['end:End', 'step:confirma', 'step:oferta', 'step:onde', 'trigger:message'].sort());
      await expect(graph.locator('.react-flow__edge').count()).resolves.toBe(4);
      await expect(graph.locator('.react-flow__edge-textwrapper').allTextContents()).resolves.toEqual(['starts', 'then', 'then', 'then']);
      await expect(graph.getByTestId('graph-node-step-1').textContent()).resolves.toContain('tools: preco');
      // Fitted into the pane at a readable size (the tab mounts it hidden), not a speck in a corner.
      const pane = (await graph.boundingBox())!;
      const stepNode = graph.getByTestId('graph-node-step-1');
      await eventually(async () => ((await stepNode.boundingBox())?.width ?? 0) > 130, 10_000);
      const node = (await stepNode.boundingBox())!;
      expect(node.x).toBeGreaterThanOrEqual(pane.x);
      expect(node.x + node.width).toBeLessThanOrEqual(pane.x + pane.width);
      // Top to bottom: the trigger above the first step, the steps in order, the end last.
      const ys = await Promise.all(['trigger-0', 'step-0', 'step-1', 'step-2', 'end'].map(async (id) => (await graph.getByTestId(`graph-node-${id}`).boundingBox())!.y));
      expect([...ys].sort((a, b) => a - b)).toEqual(ys);

      // Selecting a node opens that step in the form: in view, its first input focused.
      await graph.getByTestId('graph-node-step-2').click();
      // A string, as the test compiles without the DOM types.
      await page.waitForFunction(`document.activeElement?.closest('[data-testid="flow-0-step-2"]') != null`);
      await expect(page.getByTestId('flow-0-step-2').isVisible()).resolves.toBe(true);

      // The engine refuses the stale tool; the refusal shows on the node of the step it names.
      await confirmPublish(page);
      const error = graph.getByTestId('graph-node-step-1').getByTestId('graph-node-error');
      await error.waitFor();
      await expect(error.textContent()).resolves.toContain('preco');
      await expect(graph.getByTestId('graph-node-error').count()).resolves.toBe(1);
      await graph.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'flow-graph.png') });
      await close();
    } catch (err) {
      await close(err);
      throw err;
    }
  });
});
