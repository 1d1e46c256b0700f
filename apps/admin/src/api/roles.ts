import type { Role } from './session-store';

/** Roles that create, edit, delete and publish tenant config (the API's CONFIG_WRITERS). */
const WRITERS: readonly Role[] = ['platform_admin', 'owner', 'admin'];

export function canWrite(role: unknown): boolean {
  return WRITERS.includes(role as Role);
}
