import type { UserRole } from '@switchboard/db';

// Who may do what in the console (issue 4): platform admins, owners and admins manage config;
// operators read config, sessions and usage; viewers read. Routes pick one of these lists.

/** Create, update, delete and publish tenant config. */
export const CONFIG_WRITERS: readonly UserRole[] = ['platform_admin', 'owner', 'admin'];

/** Read config, sessions, usage and the audit log. */
export const READERS: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator', 'viewer'];

/** Manage users of a tenant. */
export const USER_MANAGERS: readonly UserRole[] = ['platform_admin', 'owner', 'admin'];
