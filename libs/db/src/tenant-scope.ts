import type { PrismaClient } from './generated/prisma/client';

/** The role the row-level security policies apply to (migration row_level_security). */
export const TENANT_ROLE = 'switchboard_tenant';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical uuid: check ids from URLs before they reach a uuid column. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The client handed to a withTenant callback: every query runs in the tenant's transaction. */
export type TenantTx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export class InvalidTenantIdError extends Error {
  readonly code = 'invalid-tenant-id';
}

/**
 * Runs `fn` in one transaction scoped to a tenant by Postgres row-level security: reads see only
 * the tenant's rows and writes of another tenant's rows fail, whatever `where` the code forgot.
 * The scope ends with the transaction (SET LOCAL), so pooled connections come back clean.
 */
export async function withTenant<T>(
  prisma: PrismaClient,
  tenantId: string,
  fn: (tx: TenantTx) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  if (!isUuid(tenantId)) throw new InvalidTenantIdError(`withTenant needs a tenant uuid, got "${tenantId}".`);
  return prisma.$transaction(async (tx) => {
    // One round trip for both settings; set_config(..., true) is SET LOCAL (ends with the transaction).
    await tx.$queryRaw`SELECT set_config('app.tenant_id', ${tenantId}, true), set_config('role', ${TENANT_ROLE}, true)`;
    return fn(tx);
  }, options);
}
