import { conciergeAgentConfig } from '@switchboard/agent-config';
import { createBullQueue, QUEUES, turnJobId, type TurnJobData } from '@switchboard/queue';
import type { Page } from 'playwright-core';
import { createSession, createTenant, createUser, unique } from '../integration/admin/support/admin-fixtures';
import { startOpsStack } from '../integration/ops/support/ops-stack';
import { fixTurnFault, queuedMessage, refuseTurnsOf } from '../integration/ops/support/turn-fault';
import { eventually } from '../integration/worker/support/private-api';
import { createTenantFixture } from '../support/fixtures';
import { notified, openConsole, openList, signIn } from './support/console-page';
import { useConsoleSuite } from './support/console-suite';

// The operations pages in a browser: an operator finds a dead webhook delivery (list, channel
// delivery log, Queues backlog), redrives it, and hands a session back to the bot; a viewer sees
// none of those controls. Rows are written straight to the database; no worker runs for those.
// The dead-letter test runs its own API and worker (startOpsStack): a real failed turn job,
// redriven from the Queues page.

jest.setTimeout(60_000);

const suite = useConsoleSuite();

async function opsWorld() {
  const t = await createTenant(suite.db);
  const externalKey = unique('wa-5541');
  const session = await createSession(suite.db, t, { externalKey, status: 'handed_off', texts: ['Quero falar com uma pessoa', 'Vou chamar um atendente.'] });
  const reply = await suite.db.message.findFirstOrThrow({ where: { sessionId: session.id, direction: 'outbound' } });
  // Not due (nextAttemptAt null): no dispatcher of another suite touches it before the redrive.
  const delivery = await suite.db.delivery.create({
    data: {
      tenantId: t.tenant.id,
      channelId: t.channel.id,
      messageId: reply.id,
      url: 'https://hooks.example.test/whatsapp',
      status: 'dead',
      attempts: 12,
      lastStatusCode: 503,
      lastError: 'HTTP 503: receiver unavailable',
    },
  });
  return { ...t, session, externalKey, delivery };
}

/** Accepts the window.confirm the hand-back button asks. */
function acceptDialogs(page: Page): void {
  page.on('dialog', (d) => void d.accept());
}

describe('the operations console', () => {
  it('shows a viewer no deliveries, queues, redrive or hand-back', async () => {
    const w = await opsWorld();
    const viewer = await createUser(suite.db, 'viewer', w.tenant.id);
    const { page, close } = await openConsole(suite.browser, viewer.email);
    try {
      await openList(page, 'Sessions');
      await page.getByRole('cell', { name: w.externalKey }).click();
      await page.getByTestId('transcript').waitFor();
      await expect(page.getByTestId('hand-back').count()).resolves.toBe(0);
      await expect(page.getByRole('menuitem', { name: 'Deliveries' }).count()).resolves.toBe(0);
      await expect(page.getByRole('menuitem', { name: 'Queues' }).count()).resolves.toBe(0);
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  }, 180_000);

  it('lets an operator find a dead delivery, redrive it, and hand a session back', async () => {
    const w = await opsWorld();
    const operator = await createUser(suite.db, 'operator', w.tenant.id);
    const { page, close } = await openConsole(suite.browser, operator.email);
    acceptDialogs(page);
    try {
      // The Queues page counts the tenant's dead delivery (its own backlog, not BullMQ's global counts).
      await page.getByRole('menuitem', { name: 'Queues' }).click();
      await page.getByTestId('backlog-deliveriesDead').getByText('1', { exact: true }).waitFor();
      await expect(page.getByTestId('queue-counts').count()).resolves.toBe(0);

      // The channel page has the delivery log.
      await openList(page, 'Channels');
      await page.getByRole('cell', { name: 'Web', exact: true }).click();
      const log = page.getByTestId('channel-deliveries');
      await log.getByText('HTTP 503: receiver unavailable').waitFor();

      // The Deliveries list, filtered to dead ones, and the redrive.
      await openList(page, 'Deliveries');
      const row = page.getByRole('row').filter({ hasText: 'HTTP 503: receiver unavailable' });
      await row.getByTestId('delivery-status').getByText('dead').waitFor();
      // The row is complete (its references loaded) before the click, so the click lands on the settled row.
      await row.getByText(w.externalKey).waitFor();
      await row.getByTestId('redrive-delivery').click();
      await notified(page, 'Delivery queued again');
      const audit = await suite.db.auditLog.findFirstOrThrow({ where: { entityId: w.delivery.id, action: 'delivery.redrive' } });
      expect(audit.actorUserId).toBe(operator.id);
      const after = await suite.db.delivery.findUniqueOrThrow({ where: { id: w.delivery.id } });
      // Pending now; a dispatcher elsewhere in the test run may already have tried it once (the host is not allow-listed).
      expect(after.status === 'pending' || (after.status === 'failed' && after.attempts === 1)).toBe(true);

      // Hand the session back: the button goes, the status reads active.
      await openList(page, 'Sessions');
      await page.getByRole('cell', { name: w.externalKey }).click();
      await page.getByTestId('hand-back').click();
      await notified(page, 'Session handed back');
      await page.getByTestId('hand-back').waitFor({ state: 'detached' });
      await page.getByText('active', { exact: true }).first().waitFor();
      expect((await suite.db.session.findUniqueOrThrow({ where: { id: w.session.id } })).status).toBe('active');
    } catch (err) {
      await close(err);
      throw err;
    }
    await close();
  }, 240_000);

  it('lets an operator redrive a turn dead letter from the Queues page', async () => {
    const stack = await startOpsStack({});
    const queue = createBullQueue<TurnJobData>(QUEUES.turns, { REDIS_URL: process.env.REDIS_URL!, DATABASE_URL: stack.databaseUrl, QUEUE_PREFIX: stack.queuePrefix });
    const context = await suite.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    try {
      const fx = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
      const operator = await createUser(stack.prisma, 'operator', fx.tenant.id);
      const { sessionId, messageId } = await queuedMessage(stack.prisma, queue, fx, (id) => [turnJobId(id)]);
      await refuseTurnsOf(stack.prisma, sessionId);
      await eventually(async () => (await queue.getJobState(turnJobId(messageId))) === 'failed', 60_000);

      await signIn(page, operator.email, stack.apiUrl);
      await page.getByRole('menuitem', { name: 'Queues' }).click();
      const row = page.getByTestId('dead-letters').getByRole('row').filter({ hasText: 'simulated fault: turn refused' });
      await row.waitFor();
      await page.getByTestId('backlog-deadLetters').getByText('1', { exact: true }).waitFor();

      await fixTurnFault(stack.prisma);
      await row.getByTestId('redrive-dead-letter').click();
      await notified(page, 'Job retried');
      await page.getByText('No failed turn jobs.').waitFor();
      await eventually(async () => (await stack.prisma.message.findUniqueOrThrow({ where: { id: messageId } })).status === 'answered', 60_000);
      // The customer heard of the dead letter once (the fallback message), then got the answer once.
      const replies = await stack.prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
      expect(replies.map((r) => r.kind)).toEqual(['fallback', expect.not.stringMatching(/^fallback$/)]);
      expect(replies[0].key).toBe(`fallback:dead-letter:${messageId}`);
    } catch (err) {
      await page.screenshot({ path: `.tmp/ops-console-dead-letter-${Date.now()}.png`, fullPage: true }).catch(() => undefined);
      throw err;
    } finally {
      await context.close();
      await queue.close();
      await stack.stop();
    }
  }, 300_000);
});
