import { SetMetadata } from '@nestjs/common';
import type { UserRole } from '@switchboard/db';

export const ROLES_KEY = 'switchboard:admin-roles';
export const PUBLIC_KEY = 'switchboard:admin-public';

export const ALL_ROLES: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator', 'viewer'];

/** The roles allowed on a route. Every admin route declares them (or is @PublicRoute()). */
export const Roles = (...roles: UserRole[]) => SetMetadata(ROLES_KEY, roles);

/** A route that needs no login, such as the login itself. */
export const PublicRoute = () => SetMetadata(PUBLIC_KEY, true);
