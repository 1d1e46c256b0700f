import { UserRole } from '@switchboard/db';
import { z } from 'zod';

/** The logged-in console user, as the guard attaches it to the request. */
export interface AdminUser {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  /** Null only for platform admins, who see every tenant. */
  tenantId: string | null;
  /** The id of the request the user made (X-Request-Id), so audit entries join the logs. */
  requestId?: string;
  /** Platform admins only: the tenant picked with X-Tenant-Id (checked by the guard); lists show only it. */
  actingTenantId?: string;
}

/** The console user as answers show it (login, refresh, /me). */
export const publicUser = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(UserRole),
  /** Null only for platform admins. */
  tenantId: z.uuid().nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;

export function toPublicUser(u: AdminUser): PublicUser {
  return { id: u.id, email: u.email, name: u.name, role: u.role, tenantId: u.tenantId };
}

/**
 * Whether an account may use the console at all: not disabled, and in a tenant unless it is a
 * platform admin (the only role that lives outside one). Checked at login, refresh and on
 * every request.
 */
export function canUseConsole(u: { disabledAt: Date | null; role: UserRole; tenantId: string | null }): boolean {
  return !u.disabledAt && (u.role === 'platform_admin' || u.tenantId !== null);
}
