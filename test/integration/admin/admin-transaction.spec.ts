import type { PrismaClient } from '@switchboard/db';
import { adminTransaction } from '../../../apps/api/src/admin/common/admin-transaction';
import type { AdminUser } from '../../../apps/api/src/admin/auth/admin-user';
import { createTenant, openDb } from './support/admin-fixtures';

jest.setTimeout(60_000);

let db: PrismaClient;
beforeAll(() => {
  db = openDb();
});
afterAll(() => db.$disconnect());

const userOf = (role: AdminUser['role'], tenantId: string | null): AdminUser => ({ id: 'u', email: 'u@example.test', name: 'u', role, tenantId });

describe('adminTransaction', () => {
  it("hides another tenant's rows from a tenant user even when the query names no tenant", async () => {
    const [a, b] = await Promise.all([createTenant(db), createTenant(db)]);
    const seen = await adminTransaction(db, userOf('owner', a.tenant.id), (tx) => tx.agent.findMany({ where: { id: { in: [a.agent.id, b.agent.id] } } }));
    expect(seen.map((r) => r.id)).toEqual([a.agent.id]);
    const write = adminTransaction(db, userOf('admin', a.tenant.id), (tx) => tx.agent.updateMany({ where: { id: b.agent.id }, data: { name: 'hijacked' } }));
    await expect(write).resolves.toEqual({ count: 0 });
    expect((await db.agent.findUniqueOrThrow({ where: { id: b.agent.id } })).name).toBe(b.agent.name);
  });

  it('lets a platform admin see every tenant', async () => {
    const [a, b] = await Promise.all([createTenant(db), createTenant(db)]);
    const seen = await adminTransaction(db, userOf('platform_admin', null), (tx) => tx.agent.count({ where: { id: { in: [a.agent.id, b.agent.id] } } }));
    expect(seen).toBe(2);
  });
});
