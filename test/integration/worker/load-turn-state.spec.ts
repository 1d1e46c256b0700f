import { HISTORY_LIMIT } from '../../../apps/worker/src/config/worker-settings';
import { LoadTurnState, turnStateCall } from '../../../apps/worker/src/turns/load-turn-state';
import { TurnSessionMissingError } from '../../../apps/worker/src/turns/turn-errors';
import { testPrisma, testPrismaService } from '../../support/fixtures';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../support/test-database';
import { createSessionRows, queueInbound } from './support/rows';
import { createPrismaClient, type PrismaClient, type PrismaService } from '@switchboard/db';
import pg from 'pg';

jest.setTimeout(30_000);

// The turn's starting point in one query: the session row and the history of committed turns.

let prisma: PrismaClient;
/** The worker's own client: LoadTurnState runs its query as a prepared statement on its pool. */
let service: PrismaService;
beforeAll(async () => {
  prisma = testPrisma();
  service = testPrismaService(2);
  await service.$connect();
});
afterAll(async () => {
  await prisma.$disconnect();
  await service.$disconnect();
});

describe('LoadTurnState', () => {
  it('returns the session and the last HISTORY_LIMIT messages of committed turns, turn by turn, each inbound before its replies', async () => {
    const rows = await createSessionRows(prisma);
    const turns = HISTORY_LIMIT / 2 + 5;
    for (let i = 0; i < turns; i++) {
      const turn = await prisma.turn.create({
        data: { tenantId: rows.tenantId, sessionId: rows.sessionId, agentId: rows.agentId, provider: 'p', model: 'm', createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) },
      });
      // The reply is stored before its inbound here (higher seq for the inbound): order is by turn, then direction.
      await prisma.message.create({ data: { ...place(rows), direction: 'outbound', status: 'sent', text: `a${i}`, key: `k${i}`, turnId: turn.id } });
      await prisma.message.create({ data: { ...place(rows), direction: 'inbound', status: 'answered', text: `q${i}`, turnId: turn.id } });
    }
    await queueInbound(prisma, rows, ['not yet answered']);
    await prisma.session.update({ where: { id: rows.sessionId }, data: { version: 7, state: { n: 1 } } });

    const { session, history } = await new LoadTurnState(service).execute(rows.tenantId, rows.sessionId);

    expect(session).toEqual({ id: rows.sessionId, tenantId: rows.tenantId, status: 'active', channelId: rows.channelId, agentId: rows.agentId, state: { n: 1 }, version: 7 });
    expect(history).toHaveLength(HISTORY_LIMIT);
    const expected = Array.from({ length: turns }, (_, i) => [
      { role: 'user', content: `q${i}` },
      { role: 'assistant', content: `a${i}` },
    ]).flat();
    expect(history).toEqual(expected.slice(-HISTORY_LIMIT));
  });

  it("refuses a session of another tenant, or one that does not exist, with its code", async () => {
    const a = await createSessionRows(prisma);
    const b = await createSessionRows(prisma);
    const loader = new LoadTurnState(service);
    await expect(loader.execute(b.tenantId, a.sessionId)).rejects.toBeInstanceOf(TurnSessionMissingError);
    const empty = await loader.execute(a.tenantId, a.sessionId);
    expect(empty.history).toEqual([]);
  });

  it('reads as many pages for a session with 10,000 earlier messages as for one whose history just fills the window', async () => {
    // A plan-level check, not a timing: the history must come from the last turns and their
    // messages, never from numbering every message of the session (issue #23).
    const window = await createSessionRows(prisma);
    await addTurns(window, HISTORY_LIMIT / 2);
    const long = await createSessionRows(prisma);
    await addTurns(long, 5_000);
    await prisma.$executeRawUnsafe('ANALYZE "Message"');
    await prisma.$executeRawUnsafe('ANALYZE "Turn"');

    const small = await pagesRead(window);
    const large = await pagesRead(long);
    expect((await new LoadTurnState(service).execute(long.tenantId, long.sessionId)).history).toHaveLength(HISTORY_LIMIT);
    // Slack for the B-tree's depth and the planner's choice of join, never for a scan: 5,000 turns
    // read through a scan cost thousands of pages.
    if (large > small * 1.5 + 20) throw new Error(`${large} pages against ${small}:\n${await planText(long)}`);

    // The plan a connection keeps for the prepared statement after a few calls is made without
    // the values: it must not read the long session's every turn either.
    for (const own of [undefined, 'ffffffff-ffff-4fff-8fff-ffffffffffff']) {
      const genericSmall = await genericPagesRead(window, own);
      const genericLarge = await genericPagesRead(long, own);
      if (genericLarge > genericSmall * 1.5 + 20) throw new Error(`generic plan: ${genericLarge} pages against ${genericSmall}`);
    }
  });

  it("finds the session's next queued message in as many pages however many other sessions' messages are queued", async () => {
    // Statistics taken while little was queued, then a backlog elsewhere (another tenant's burst,
    // a stalled worker fleet): the claim must read this session's queued entries, not walk every
    // queued message of the platform to filter one session's (it did through an index on status).
    const rows = await createSessionRows(prisma);
    await addTurns(rows, 3);
    const [own] = await queueInbound(prisma, rows, ['waiting']);
    await prisma.$executeRawUnsafe('ANALYZE "Message"');
    const before = await pagesRead(rows, own);
    const genericBefore = await genericPagesRead(rows, own);

    const backlog = await createSessionRows(prisma);
    await prisma.$executeRaw`
      INSERT INTO "Message" ("tenantId", "sessionId", "channelId", "direction", "status", "text")
      SELECT ${backlog.tenantId}::uuid, ${backlog.sessionId}::uuid, ${backlog.channelId}::uuid, 'inbound', 'queued', 'backlog ' || i
        FROM generate_series(1, 3000) AS i`;

    try {
      const claim = await new LoadTurnState(service).claim(rows.tenantId, rows.sessionId, own);
      expect(claim.next?.id).toBe(own);
      const after = await pagesRead(rows, own);
      if (after > before * 1.5 + 20) throw new Error(`${after} pages against ${before}:\n${await planText(rows, own)}`);
      const genericAfter = await genericPagesRead(rows, own);
      if (genericAfter > genericBefore * 1.5 + 20) throw new Error(`generic plan: ${genericAfter} pages against ${genericBefore}`);
    } finally {
      // Not left queued in the shared database for another suite's sweeper to find.
      await prisma.message.deleteMany({ where: { sessionId: { in: [backlog.sessionId, rows.sessionId] } } });
    }
  });

  it('keeps to the own message by its id when the plan a connection keeps was made while the tables were small', async () => {
    // A new deployment: a worker's connection plans the claim on its first turns, when the
    // tables hold a few rows and have no statistics, and keeps that generic plan as they grow.
    // With the tenant beside the own message's id, that plan read the own message through the
    // tenant's index: every claim walked all of the tenant's messages (3,657 pages a claim in a
    // fresh bench database, against about 60).
    const name = uniqueName('sb_test_fresh_plan');
    const url = await createMigratedDatabase(name);
    const fresh = createPrismaClient({ connectionString: url, max: 1 });
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const rows = await createSessionRows(fresh);
      await addTurns(rows, 3, fresh);
      const [own] = await queueInbound(fresh, rows, ['waiting']);
      const pages = await prepareGeneric(client, rows, own);
      const before = await pages();

      // The tenant's other conversations grow; the connection keeps its plan.
      const other = await fresh.session.create({ data: { tenantId: rows.tenantId, channelId: rows.channelId, agentId: rows.agentId, externalKey: 'other' } });
      await addTurns({ ...rows, sessionId: other.id }, 5_000, fresh);
      const after = await pages();
      if (after > before * 1.5 + 20) throw new Error(`generic plan made on small tables: ${after} pages against ${before}`);
    } finally {
      await client.end().catch(() => undefined);
      await fresh.$disconnect();
      await dropDatabase(name);
    }
  });
});

/** `count` turns on the session, each an inbound and its reply, written in one statement. */
async function addTurns(
  rows: { tenantId: string; sessionId: string; channelId: string; agentId: string },
  count: number,
  db: PrismaClient = prisma,
): Promise<void> {
  await db.$executeRaw`
    WITH t AS (
      INSERT INTO "Turn" ("tenantId", "sessionId", "agentId", "provider", "model", "createdAt")
      SELECT ${rows.tenantId}::uuid, ${rows.sessionId}::uuid, ${rows.agentId}::uuid, 'p', 'm', timestamp '2026-01-01' + make_interval(secs => i)
        FROM generate_series(1, ${count}) AS i
      RETURNING "id")
    INSERT INTO "Message" ("tenantId", "sessionId", "channelId", "direction", "status", "text", "turnId")
    SELECT ${rows.tenantId}::uuid, ${rows.sessionId}::uuid, ${rows.channelId}::uuid, d.direction::"MessageDirection",
           CASE WHEN d.direction = 'inbound' THEN 'answered' ELSE 'sent' END::"MessageStatus", 'text', t."id"
      FROM t CROSS JOIN (VALUES ('inbound'), ('outbound')) AS d(direction)`;
}

/** Shared buffers (hit or read) the claim-and-load touches under a plan made for these values. */
async function pagesRead(rows: { tenantId: string; sessionId: string }, ownMessageId?: string): Promise<number> {
  return withClient(async (client) => (await prepare(client, 'force_custom_plan', rows, ownMessageId))());
}

/** The same, under the generic plan a worker's connection keeps after a few calls. */
async function genericPagesRead(rows: { tenantId: string; sessionId: string }, ownMessageId?: string): Promise<number> {
  return withClient(async (client) => (await prepareGeneric(client, rows, ownMessageId))());
}

/**
 * Runs the claim-and-load (sb_turn_state, whose query each connection plans once and keeps) on
 * `client` under its generic plan, made here; the function returned runs it again and reads the
 * pages it touched, with that plan.
 */
function prepareGeneric(client: pg.Client, rows: { tenantId: string; sessionId: string }, ownMessageId?: string): Promise<() => Promise<number>> {
  return prepare(client, 'force_generic_plan', rows, ownMessageId);
}

async function prepare(
  client: pg.Client,
  mode: 'force_generic_plan' | 'force_custom_plan',
  rows: { tenantId: string; sessionId: string },
  ownMessageId?: string,
): Promise<() => Promise<number>> {
  const call = turnStateCall(rows.tenantId, rows.sessionId, ownMessageId);
  await client.query(`SET plan_cache_mode = ${mode}`);
  // The first call plans the function's query (reading the catalog): not part of the count.
  await client.query(call.text, call.values);
  return async () => {
    const { rows: plan } = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>({
      text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${call.text}`,
      values: call.values,
    });
    // The function's own queries count in the call's node (Postgres's buffer counters are global).
    const root = plan[0]['QUERY PLAN'][0].Plan;
    return root['Shared Hit Blocks'] + root['Shared Read Blocks'];
  };
}

/** The plans of the function's query, for a failure's message (auto_explain, sent to the client). */
async function planText(rows: { tenantId: string; sessionId: string }, ownMessageId?: string): Promise<string> {
  return withClient(async (client) => {
    const lines: string[] = [];
    client.on('notice', (notice) => lines.push(notice.message ?? ''));
    await client.query("LOAD 'auto_explain'");
    for (const setting of ['log_min_duration = 0', 'log_analyze = on', 'log_buffers = on', 'log_nested_statements = on']) {
      await client.query(`SET auto_explain.${setting}`);
    }
    await client.query('SET client_min_messages = log');
    const call = turnStateCall(rows.tenantId, rows.sessionId, ownMessageId);
    await client.query(call.text, call.values);
    return lines.join('\n');
  });
}

async function withClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function place(rows: { tenantId: string; sessionId: string; channelId: string }) {
  return { tenantId: rows.tenantId, sessionId: rows.sessionId, channelId: rows.channelId };
}
