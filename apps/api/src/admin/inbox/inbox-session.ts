import type { TenantTx } from '@switchboard/db';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';

export const inboxSessionSelect = {
  id: true,
  tenantId: true,
  channelId: true,
  externalKey: true,
  status: true,
  handedOffAt: true,
  takenOverById: true,
  takenOverBy: { select: { email: true, name: true } },
} as const;

/** The session an inbox action is about, in the caller's tenant, locked for the action's transaction; 404 otherwise (also for malformed ids). */
export async function lockInboxSession(tx: TenantTx, user: AdminUser, id: string) {
  const found = isUuid(id) ? await tx.session.findFirst({ where: { id, ...tenantScope(user) }, select: { id: true } }) : null;
  if (!found) throw new ResourceNotFoundError('session', id);
  // Two operators acting at once (take over, reply) are serialised on the session row.
  await tx.$queryRaw`SELECT 1 FROM "Session" WHERE "id" = ${id}::uuid FOR UPDATE`;
  return tx.session.findUniqueOrThrow({ where: { id }, select: inboxSessionSelect });
}

/** How the console names a person: their name, else their email. */
export function personName(u: { email: string; name: string } | null): string | null {
  return u ? u.name || u.email : null;
}
