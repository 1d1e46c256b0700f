import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AdminUser } from './admin-user';
import type { AdminRequest } from './admin-auth.guard';

/** The user the AdminAuthGuard loaded for this request. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AdminUser => {
  const user = context.switchToHttp().getRequest<AdminRequest>().adminUser;
  // The guard runs before any handler that reads the user; reaching here without one is a bug.
  if (!user) throw new Error('CurrentUser used on a route without AdminAuthGuard');
  return user;
});
