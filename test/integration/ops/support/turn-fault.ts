import type { PrismaClient } from '@switchboard/db';
import { TURN_JOB_OPTIONS, type TurnJobData } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { uniqueSuffix, type TenantFixture } from '../../../support/fixtures';

// A turn job that fails every attempt, for the dead-letter tests. The fault is a database
// trigger refusing one session's Turn rows, like a bug in the turn's own path: not a provider
// failure, so the worker spends its attempts on it. The Turn that tells the customer of the dead
// letter (outcome `dead-lettered`: no agent, no engine) is let through, as a bug in the turn's
// own path does not stop it. Only for a suite's own database (startOpsStack).

const FAULT = 'ops_test_refuse_turn';

/** The sweeper's job id for a message (apps/worker/src/sweeper): a second job, a second possible dead letter. */
export const sweepJobId = (messageId: string) => `sweep-${messageId}`;

/** A session with one queued customer message, and turn jobs for it with two quick attempts each. */
export async function queuedMessage(prisma: PrismaClient, queue: Queue<TurnJobData>, fx: TenantFixture, jobIds: (messageId: string) => string[]) {
  const session = await prisma.session.create({
    data: { tenantId: fx.tenant.id, channelId: fx.channel.id, agentId: fx.agent.id, externalKey: `dl-${uniqueSuffix()}` },
  });
  const message = await prisma.message.create({
    data: { tenantId: fx.tenant.id, sessionId: session.id, channelId: fx.channel.id, direction: 'inbound', status: 'queued', text: 'Quero um quarto em Curitiba' },
  });
  for (const jobId of jobIds(message.id)) {
    await queue.add(
      'turn',
      { tenantId: fx.tenant.id, sessionId: session.id, messageId: message.id, acceptedAt: Date.now() },
      { ...TURN_JOB_OPTIONS, attempts: 2, backoff: { type: 'fixed', delay: 100 }, jobId },
    );
  }
  return { sessionId: session.id, messageId: message.id, externalKey: session.externalKey };
}

/** From now on every Turn of `sessionId` but a dead letter's fails to commit ("simulated fault: turn refused"). */
export async function refuseTurnsOf(prisma: PrismaClient, sessionId: string): Promise<void> {
  await prisma.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION ${FAULT}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW."sessionId" = '${sessionId}' AND NOT ('dead-lettered' = ANY(NEW."outcomeCodes")) THEN RAISE EXCEPTION 'simulated fault: turn refused'; END IF;
      RETURN NEW;
    END $$`);
  await prisma.$executeRawUnsafe(`CREATE TRIGGER ${FAULT} BEFORE INSERT ON "Turn" FOR EACH ROW EXECUTE FUNCTION ${FAULT}()`);
}

/** The fault is fixed: turns commit again. */
export async function fixTurnFault(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${FAULT} ON "Turn"`);
}
