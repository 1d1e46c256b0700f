import { BullModule, Processor, WorkerHost } from '@nestjs/bullmq';
import { Test, type TestingModule } from '@nestjs/testing';
import { bullConnection, bullSchema, useBullBackend } from '@switchboard/queue';
import { Client } from 'pg';
import { QueuesReady, QueuesReadyModule } from '../../../apps/worker/src/queues/queues-ready';
import { uniqueSuffix } from '../../support/fixtures';

// The worker reports ready only once every BullMQ queue and worker of the process is connected.
// In Postgres mode that is when BullMQ's tables are checked and migrated; a database that cannot
// be reached makes the start fail, instead of a queue dead for the life of the process (or, with
// an outage during the check, a process that died after reporting ready).

jest.setTimeout(60_000);

const QUEUE = 'queues-ready-test';

@Processor(QUEUE, { autorun: false })
class IdleProcessor extends WorkerHost {
  async process(): Promise<void> {}
}

async function appOn(databaseUrl: string, prefix: string): Promise<TestingModule> {
  const env = { QUEUE_BACKEND: 'postgres' as const, REDIS_URL: '', DATABASE_URL: databaseUrl, QUEUE_PREFIX: prefix };
  useBullBackend(env);
  const mod = await Test.createTestingModule({
    imports: [BullModule.forRoot({ connection: bullConnection(env), prefix }), BullModule.registerQueue({ name: QUEUE }), QueuesReadyModule],
    providers: [IdleProcessor],
  }).compile();
  await mod.init();
  return mod;
}

async function bullTables(prefix: string): Promise<string[]> {
  const pg = new Client({ connectionString: process.env.DATABASE_URL });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [bullSchema(prefix)]);
    return rows.map((r) => r.table_name);
  } finally {
    await pg.query(`DROP SCHEMA IF EXISTS "${bullSchema(prefix)}" CASCADE`);
    await pg.end();
  }
}

describe('QueuesReady (Postgres mode)', () => {
  afterAll(() => useBullBackend({ QUEUE_BACKEND: 'redis' }));

  it("resolves once the queues and workers have BullMQ's tables", async () => {
    const prefix = `sbt-ready-${uniqueSuffix()}`;
    const mod = await appOn(process.env.DATABASE_URL!, prefix);
    try {
      await mod.get(QueuesReady).wait();
    } finally {
      await mod.close();
    }
    expect(await bullTables(prefix)).toEqual(expect.arrayContaining(['job']));
  });

  it('rejects when the database cannot be reached, so the start fails', async () => {
    const unreachable = new URL(process.env.DATABASE_URL!);
    unreachable.port = '1';
    const mod = await appOn(unreachable.toString(), `sbt-ready-${uniqueSuffix()}`);
    try {
      await expect(mod.get(QueuesReady).wait()).rejects.toThrow(/ECONNREFUSED|connect/);
    } finally {
      await mod.close().catch(() => undefined);
    }
  });
});
