import type { UserRole } from '@switchboard/db';
import { BadRequestError, ForbiddenError } from '../../common/errors';
import type { AdminUser } from '../auth/admin-user';

/** Which roles each manager may give, and manage users holding. */
const ASSIGNABLE: Partial<Record<UserRole, readonly UserRole[]>> = {
  platform_admin: ['platform_admin', 'owner', 'admin', 'operator', 'viewer'],
  owner: ['owner', 'admin', 'operator', 'viewer'],
  // An admin runs the tenant day to day but cannot create or touch its owners.
  admin: ['admin', 'operator', 'viewer'],
};

export class RoleNotAssignableError extends ForbiddenError {
  constructor(actor: UserRole, role: UserRole) {
    super('role-not-assignable', `A ${actor} cannot create, change or remove a ${role}; ask an owner or a platform admin.`);
  }
}

export class SelfChangeError extends BadRequestError {
  constructor(what: string) {
    super('cannot-change-self', `You cannot ${what} your own account; ask another manager of the tenant.`);
  }
}

/** Throws unless `actor` may manage users holding `role` (as the target's old or new role). */
export function assertMayManage(actor: AdminUser, role: UserRole): void {
  if (!(ASSIGNABLE[actor.role] ?? []).includes(role)) throw new RoleNotAssignableError(actor.role, role);
}
