import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PrismaService, type UserRole } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import { ForbiddenRoleError, UnauthenticatedError } from '../admin-errors';
import { AccessTokenService } from './access-token.service';
import { actingTenant, TENANT_HEADER } from './acting-tenant';
import type { AdminUser } from './admin-user';
import { PUBLIC_KEY, ROLES_KEY } from './roles.decorator';

export interface AdminRequest {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  adminUser?: AdminUser;
}

/**
 * Reads `Authorization: Bearer <token>`, loads the user fresh from the database (so a disabled
 * user or a changed role takes effect at once) and checks the route's @Roles. A route that
 * declares no roles is refused: forgetting them must not open it.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokenService,
    private readonly prisma: PrismaService,
    private readonly logger: PinoLogger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const request = context.switchToHttp().getRequest<AdminRequest>();
    const user = await this.authenticate(request.headers.authorization);
    const actingTenantId = await actingTenant(this.prisma, user, request.headers[TENANT_HEADER]);
    request.adminUser = { ...user, requestId: request.id, ...(actingTenantId && { actingTenantId }) };
    // Every log line of the request (and its "request completed" line) names who made it.
    this.logger.assign({ userId: user.id, tenantId: user.tenantId ?? undefined });

    const allowed = this.reflector.getAllAndOverride<UserRole[] | undefined>(ROLES_KEY, targets) ?? [];
    if (!allowed.includes(user.role)) throw new ForbiddenRoleError(user.role, allowed);
    return true;
  }

  private async authenticate(header: string | string[] | undefined): Promise<AdminUser> {
    if (typeof header !== 'string' || header.trim() === '') {
      throw new UnauthenticatedError('No access token was sent.');
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw new UnauthenticatedError('The Authorization header is not "Bearer <token>".');

    const userId = await this.tokens.verify(match[1]);
    if (!userId) throw new UnauthenticatedError('The access token is invalid or expired.');

    const user = await this.prisma.user.findUnique({
      where: { id: userId },
      select: { id: true, email: true, name: true, role: true, tenantId: true, disabledAt: true },
    });
    if (!user || user.disabledAt) throw new UnauthenticatedError('The account of this token no longer exists or is disabled.');
    // Only platform admins live outside a tenant; any other tenant-less user is refused.
    if (user.role !== 'platform_admin' && !user.tenantId) {
      throw new UnauthenticatedError('The account belongs to no tenant.');
    }
    return { id: user.id, email: user.email, name: user.name, role: user.role, tenantId: user.tenantId };
  }
}
