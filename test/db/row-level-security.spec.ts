import { TENANT_ROLE, withTenant, type PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, type TenantFixture } from '../support/fixtures';
import { populateTenant, type TenantWorld } from './support/tenant-world';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

// Tenant isolation enforced by Postgres: inside withTenant(A), every tenant-owned table shows
// only A's rows, and B's rows can be neither changed nor deleted nor created — whatever the
// query forgets. Tables are taken from the catalog, so a new tenant table is covered at once.

let prisma: PrismaClient;
let a: TenantFixture;
let b: TenantFixture;
let bWorld: TenantWorld;
let tenantTables: string[];

/** The column holding a table's tenant: "id" for Tenant itself. */
const tenantColumn = (table: string) => (table === 'Tenant' ? 'id' : 'tenantId');

beforeAll(async () => {
  prisma = testPrisma();
  [a, b] = await Promise.all([createTenantFixture(prisma), createTenantFixture(prisma)]);
  [, bWorld] = await Promise.all([populateTenant(prisma, a), populateTenant(prisma, b)]);
  const rows = await prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.columns
     WHERE table_schema = 'public' AND column_name = 'tenantId' ORDER BY table_name`;
  tenantTables = ['Tenant', ...rows.map((r) => r.table_name)];
});

afterAll(() => prisma.$disconnect());

async function ownerCount(table: string, tenantId: string): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM "${table}" WHERE "${tenantColumn(table)}" = $1::uuid`,
    tenantId,
  );
  return Number(row.n);
}

describe('row-level security', () => {
  it('is enabled, with a tenant policy, on every table that has a tenantId', async () => {
    const rows = await prisma.$queryRaw<{ table: string; rls: boolean; policies: bigint }[]>`
      SELECT c.relname AS table, c.relrowsecurity AS rls,
             (SELECT count(*) FROM pg_policies p WHERE p.schemaname = 'public' AND p.tablename = c.relname) AS policies
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r'`;
    const byTable = new Map(rows.map((r) => [r.table, r]));
    expect(tenantTables.length).toBeGreaterThanOrEqual(16);
    for (const table of tenantTables) {
      expect({ table, rls: byTable.get(table)?.rls, policies: Number(byTable.get(table)?.policies) }).toEqual({ table, rls: true, policies: 1 });
    }
  });

  it("shows a tenant only its own rows in every tenant table, even with no where clause", async () => {
    const seen = await withTenant(prisma, a.tenant.id, async (tx) => {
      const out: Record<string, { mine: number; others: number }> = {};
      for (const table of tenantTables) {
        const [row] = await tx.$queryRawUnsafe<{ mine: bigint; others: bigint }[]>(
          `SELECT count(*) FILTER (WHERE "${tenantColumn(table)}" = $1::uuid) AS mine,
                  count(*) FILTER (WHERE "${tenantColumn(table)}" IS DISTINCT FROM $1::uuid) AS others FROM "${table}"`,
          a.tenant.id,
        );
        out[table] = { mine: Number(row.mine), others: Number(row.others) };
      }
      return out;
    });
    for (const table of tenantTables) {
      expect({ table, ...seen[table], mine: seen[table].mine > 0 }).toEqual({ table, mine: true, others: 0 });
    }
  });

  it("cannot update or delete another tenant's rows in any tenant table", async () => {
    const before = Object.fromEntries(await Promise.all(tenantTables.map(async (t) => [t, await ownerCount(t, b.tenant.id)] as const)));
    const changed = await withTenant(prisma, a.tenant.id, async (tx) => {
      let n = 0;
      for (const table of tenantTables) {
        const col = tenantColumn(table);
        n += await tx.$executeRawUnsafe(`UPDATE "${table}" SET "${col}" = "${col}" WHERE "${col}" = $1::uuid`, b.tenant.id);
      }
      // Deletes last, children first, so a cascade could not hide a failure.
      for (const table of [...tenantTables].reverse()) {
        n += await tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE "${tenantColumn(table)}" = $1::uuid`, b.tenant.id);
      }
      return n;
    });
    expect(changed).toBe(0);
    for (const table of tenantTables) expect({ table, n: await ownerCount(table, b.tenant.id) }).toEqual({ table, n: before[table] });
  });

  it("refuses to create a row for another tenant", async () => {
    await expect(
      withTenant(prisma, a.tenant.id, (tx) => tx.agent.create({ data: { tenantId: b.tenant.id, name: 'intruder' } })),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withTenant(prisma, a.tenant.id, (tx) =>
        tx.message.create({
          data: { tenantId: b.tenant.id, sessionId: bWorld.sessionId, channelId: b.channel.id, direction: 'inbound', status: 'queued', text: 'x' },
        }),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await prisma.agent.count({ where: { name: 'intruder' } })).toBe(0);
  });

  it("lets Prisma's model API read and write the tenant's own rows, and find nothing of the other's", async () => {
    await withTenant(prisma, a.tenant.id, async (tx) => {
      expect(await tx.session.findUnique({ where: { id: bWorld.sessionId } })).toBeNull();
      expect(await tx.message.findMany({ where: { sessionId: bWorld.sessionId } })).toEqual([]);
      const agent = await tx.agent.create({ data: { tenantId: a.tenant.id, name: 'mine' } });
      expect(await tx.agent.findUnique({ where: { id: agent.id } })).not.toBeNull();
    });
  });

  it('shows nothing to the tenant role when no tenant is set', async () => {
    const n = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL ROLE ${TENANT_ROLE}`);
      const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Message"`;
      return Number(row.n);
    });
    expect(n).toBe(0);
  });

  it('leaves the pooled connection unscoped after the transaction', async () => {
    await withTenant(prisma, a.tenant.id, (tx) => tx.agent.count());
    const [row] = await prisma.$queryRaw<{ role: string; tenant: string | null }[]>`
      SELECT current_user AS role, NULLIF(current_setting('app.tenant_id', true), '') AS tenant`;
    expect(row.role).not.toBe(TENANT_ROLE);
    expect(row.tenant).toBeNull();
    expect(await prisma.tenant.count({ where: { id: { in: [a.tenant.id, b.tenant.id] } } })).toBe(2);
  });

  // Ingest's one-round-trip function (sb_accept_inbound) scopes its own statement the same way.
  describe('sb_accept_inbound', () => {
    const accept = (tenantId: string, f: TenantFixture, session: string, externalId: string | null) =>
      prisma.$queryRaw<{ message_id: string; duplicate: boolean }[]>`
        SELECT * FROM sb_accept_inbound(${tenantId}::uuid, ${f.channel.id}::uuid, ${f.agent.id}::uuid, ${session}::text,
          'hello'::text, ${externalId}::text, 'queued'::"MessageStatus", NULL::text, now())`;

    it("stores the message of the key's tenant, and a repeated message id returns the first one", async () => {
      const [first] = await accept(a.tenant.id, a, 'rls-fn-1', 'rls-fn-ext-1');
      const [again] = await accept(a.tenant.id, a, 'rls-fn-1', 'rls-fn-ext-1');
      expect(first.duplicate).toBe(false);
      expect(again).toEqual({ ...first, duplicate: true });
      expect(await prisma.message.count({ where: { channelId: a.channel.id, externalId: 'rls-fn-ext-1' } })).toBe(1);
    });

    it("refuses to touch another tenant's session, and finds no other tenant's message by its id", async () => {
      const [theirs] = await accept(b.tenant.id, b, 'rls-fn-2', 'rls-fn-ext-2');
      const before = await ownerCount('Message', b.tenant.id);
      // Tenant A naming B's session: B's message id is not visible to A's scope, and updating
      // B's session row is refused. (Which channel a key may name is the API key's to decide.)
      await expect(accept(a.tenant.id, b, 'rls-fn-2', 'rls-fn-ext-2')).rejects.toThrow(/row-level security/);
      expect(await ownerCount('Message', b.tenant.id)).toBe(before);
      expect(theirs.duplicate).toBe(false);
    });

    it('leaves the pooled connection unscoped after the call', async () => {
      await accept(a.tenant.id, a, 'rls-fn-4', null);
      const [row] = await prisma.$queryRaw<{ role: string; tenant: string | null }[]>`
        SELECT current_user AS role, NULLIF(current_setting('app.tenant_id', true), '') AS tenant`;
      expect(row.role).not.toBe(TENANT_ROLE);
      expect(row.tenant).toBeNull();
    });
  });

  it('rejects a tenant id that is not a uuid', async () => {
    await expect(withTenant(prisma, "x' OR true --", (tx) => tx.agent.count())).rejects.toThrow('withTenant needs a tenant uuid');
  });
});
