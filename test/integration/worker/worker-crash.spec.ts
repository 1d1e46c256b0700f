import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma } from '../../support/fixtures';
import { crashMidTurn, slowConcierge, type ScenarioContext } from './support/guarantee-scenarios';
import { startPrivateApi } from './support/private-api';

// A worker killed with SIGKILL in the middle of turns: once another worker runs, every message
// is answered exactly once and no reply is stored twice. Short locks and leases make the
// recovery (BullMQ's stalled-job check, the lease's TTL) fit in a test. The scenario is shared
// with the Postgres-mode suite (test/integration/postgres-mode).

jest.setTimeout(120_000);

describe('worker: crash in the middle of turns', () => {
  let prisma: PrismaClient;
  let ctx: ScenarioContext;

  beforeAll(async () => {
    const api = await startPrivateApi();
    prisma = testPrisma();
    const fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(400) });
    ctx = { api, prisma, fx, workers: [] };
  });

  afterAll(async () => {
    await Promise.all(ctx?.workers.map((w) => w.kill()) ?? []);
    await ctx?.api.stop();
    await prisma?.$disconnect();
  });

  it('answers every message once after a SIGKILL mid-turn and a restart', async () => {
    await crashMidTurn(ctx);
  });
});
