import { ForbiddenError } from '../common/errors';

/**
 * 403 `tenant-suspended`: a platform admin suspended the tenant, so its channels, widget
 * visitors and console users are refused and nothing is stored (docs/security.md).
 */
export class TenantSuspendedError extends ForbiddenError {
  constructor() {
    super('tenant-suspended', 'This tenant is suspended: nothing is accepted or answered until a platform admin reactivates it. Nothing was stored.');
  }
}
