import { CountingPool, type PrismaClient, type PrismaService } from '@switchboard/db';
import { ensureRuntimeSchema, LEASES_TABLE } from '@switchboard/queue';
import type { Pool } from 'pg';
import type { AgentCatalog } from '../../../apps/worker/src/agents/agent-catalog';
import { PostgresLeaseStore } from '../../../apps/worker/src/lease/postgres-lease-store';
import { SessionLeases } from '../../../apps/worker/src/lease/session-lease';
import type { AgentModelHealth } from '../../../apps/worker/src/turns/agent-model-health';
import { DrainSession } from '../../../apps/worker/src/turns/drain-session';
import { LoadTurnState } from '../../../apps/worker/src/turns/load-turn-state';
import type { RetireAnsweredJobs } from '../../../apps/worker/src/turns/retire-answered-jobs';
import type { RunTurn } from '../../../apps/worker/src/turns/run-turn';
import { testPrisma, testPrismaService } from '../../support/fixtures';
import { createSessionRows, queueInbound, unique, type SessionRows } from '../worker/support/rows';

jest.setTimeout(30_000);

// Postgres mode keeps a session's lease as a row beside the session, so one statement
// (sb_lease_and_turn_state) takes the lease and reads the drain's first claim: a job starts its
// drain in one round trip instead of two (docs/hot-path.md, "Eleventh round").

let prisma: PrismaClient;
/** The worker's own client: the claim runs as a prepared statement on its pool, and counts its round trips. */
let service: PrismaService;
/** The worker's runtime pool (leases' renewals and releases), counted as in the worker. */
let runtime: CountingPool;
let leases: SessionLeases;
let drain: DrainSession;

beforeAll(async () => {
  prisma = testPrisma();
  service = testPrismaService(2);
  await service.$connect();
  runtime = new CountingPool({ connectionString: process.env.DATABASE_URL, max: 2 });
  await ensureRuntimeSchema(runtime);
  leases = new SessionLeases(new PostgresLeaseStore(runtime), { prefix: unique('sbt-lic'), ttlMs: 10_000 });
  // Only take() is driven here: it uses the leases and the turn state, nothing else.
  drain = new DrainSession(service, leases, {} as RunTurn, {} as AgentCatalog, new LoadTurnState(service), {} as RetireAnsweredJobs, {} as AgentModelHealth);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await service?.$disconnect();
  await runtime?.end();
});

async function leaseRow(sessionId: string): Promise<{ token: string; live: boolean } | undefined> {
  const { rows } = await runtime.query<{ token: string; live: boolean }>(`SELECT token, expires_at > clock_timestamp() AS live FROM ${LEASES_TABLE} WHERE key = $1`, [leases.key(sessionId)]);
  return rows[0];
}

/** Resolves once another backend waits on a lock `holder`'s open transaction holds. */
async function waitedOn(holder: { query: Pool['query'] }): Promise<void> {
  const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  for (let i = 0; i < 200; i++) {
    const { rows: waiting } = await runtime.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [rows[0].pid]);
    if (waiting[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the take never waited on the holder');
}

describe('the lease taken in the drain’s first read (Postgres mode)', () => {
  let rows: SessionRows;
  let own: string;

  beforeEach(async () => {
    rows = await createSessionRows(prisma);
    [own] = await queueInbound(prisma, rows, ['oi']);
  });

  it('takes the lease and reads the same claim as the drain’s own read, in one round trip of the worker’s client and none of the runtime pool', async () => {
    const sent = service.roundTrips;
    const runtimeBefore = runtime.sent;

    const taken = await drain.take(rows.tenantId, rows.sessionId, own);

    expect(service.roundTrips - sent).toBe(1);
    expect(runtime.sent - runtimeBefore).toBe(0);
    expect(taken).not.toBeNull();
    expect(taken!.lease.isHeld).toBe(true);
    expect(await leaseRow(rows.sessionId)).toEqual({ token: taken!.lease.token, live: true });
    const separate = await new LoadTurnState(service).claim(rows.tenantId, rows.sessionId, own);
    expect(taken!.first).toEqual(separate);
    expect(taken!.first).toMatchObject({ ownSettled: false, next: { id: own, text: 'oi' } });

    await taken!.lease.release();
    expect(await leaseRow(rows.sessionId)).toBeUndefined();
  });

  it('returns null while another holder has the lease, and reads nothing', async () => {
    const holder = await leases.acquire(rows.sessionId);
    try {
      expect(await drain.take(rows.tenantId, rows.sessionId, own)).toBeNull();
      expect(await leaseRow(rows.sessionId)).toEqual({ token: holder!.token, live: true });
    } finally {
      await holder!.release();
    }
    // Let go: the next job takes it.
    const taken = await drain.take(rows.tenantId, rows.sessionId, own);
    expect(taken?.first?.next?.id).toBe(own);
    await taken!.lease.release();
  });

  it('takes over a lease whose holder let it expire (a dead worker), as PostgresLeaseStore.take does', async () => {
    // Its holder died: no renewal, and its TTL ran out.
    await runtime.query(`INSERT INTO ${LEASES_TABLE} VALUES ($1, 'dead', clock_timestamp() - interval '1 second')`, [leases.key(rows.sessionId)]);

    const taken = await drain.take(rows.tenantId, rows.sessionId, own);

    expect(taken).not.toBeNull();
    expect(await leaseRow(rows.sessionId)).toEqual({ token: taken!.lease.token, live: true });
    await taken!.lease.release();
  });

  it('reads the claim after the lease is ours: a holder that answers the message and lets go while the take waits on it is seen', async () => {
    const holder = await leases.acquire(rows.sessionId);
    // The holder's last commit and its release, in one transaction held open: the take waits on
    // the lease row it is deleting.
    const client = await runtime.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE "Message" SET status = 'answered' WHERE id = $1`, [own]);
      await client.query(`DELETE FROM ${LEASES_TABLE} WHERE key = $1 AND token = $2`, [holder!.key, holder!.token]);
      const taking = drain.take(rows.tenantId, rows.sessionId, own);
      // The take's statement has started (and would have its snapshot, were the read in it) and
      // waits on the holder's transaction.
      await waitedOn(client);
      await client.query('COMMIT');

      const taken = await taking;

      expect(taken).not.toBeNull();
      // Read on a snapshot taken once the lease was ours: the holder's answer is there.
      expect(taken!.first).toMatchObject({ ownSettled: true, next: null });
      await taken!.lease.release();
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      await holder!.release();
    }
  });

  it('lets go of the lease when the statement took it but its answer was lost (a connection cut after the commit)', async () => {
    const real = new LoadTurnState(service);
    const lost = {
      claimLeased: async (...args: Parameters<LoadTurnState['claimLeased']>) => {
        await real.claimLeased(...args);
        throw new Error('Connection terminated unexpectedly');
      },
    } as unknown as LoadTurnState;
    const cut = new DrainSession(service, leases, {} as RunTurn, {} as AgentCatalog, lost, {} as RetireAnsweredJobs, {} as AgentModelHealth);

    await expect(cut.take(rows.tenantId, rows.sessionId, own)).rejects.toThrow('Connection terminated unexpectedly');

    // Free for the job's retry at once, not after the lease's TTL.
    expect(await leaseRow(rows.sessionId)).toBeUndefined();
  });

  it('claims nothing for a session of another tenant, yet holds the lease it took (the drain ends at once)', async () => {
    const other = await createSessionRows(prisma);
    const taken = await drain.take(other.tenantId, rows.sessionId, own);
    expect(taken?.first).toEqual({ ownSettled: true, next: null });
    await taken!.lease.release();
  });
});
