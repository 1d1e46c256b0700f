import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma } from '../../support/fixtures';
import { burstAcrossTwoWorkers, slowConcierge, type ScenarioContext } from './support/guarantee-scenarios';
import { startPrivateApi } from './support/private-api';

// Bursts of messages in a session, with two worker processes competing for the jobs: each
// message is answered once, in arrival order, and no two turns of one session ever overlap.
// The scenario is shared with the Postgres-mode suite (test/integration/postgres-mode).

jest.setTimeout(120_000);

describe('worker: bursts across two worker processes', () => {
  let prisma: PrismaClient;
  let ctx: ScenarioContext;

  beforeAll(async () => {
    const api = await startPrivateApi();
    prisma = testPrisma();
    // The Concierge with a model that takes a while, so overlapping turns would show.
    const fx = await createTenantFixture(prisma, { agentConfig: slowConcierge(40) });
    ctx = { api, prisma, fx, workers: [] };
  });

  afterAll(async () => {
    await Promise.all(ctx?.workers.map((w) => w.kill()) ?? []);
    await ctx?.api.stop();
    await prisma?.$disconnect();
  });

  it('answers each message of a burst once, in order, one turn of a session at a time', async () => {
    await burstAcrossTwoWorkers(ctx);
  });
});
