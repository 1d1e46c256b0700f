import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PrismaService, type UserRole } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import { ForbiddenRoleError, UnauthenticatedError } from '../admin-errors';
import { TenantSuspendedError } from '../../tenant-status/tenant-suspended.error';
import { AccessTokenService } from './access-token.service';
import { actingTenant, TENANT_HEADER } from './acting-tenant';
import { canUseConsole, type AdminUser } from './admin-user';
import { PUBLIC_KEY, ROLES_KEY } from './roles.decorator';
import { assignLogFields } from '../../logging/assign-log-fields';

export interface AdminRequest {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  adminUser?: AdminUser;
}

/**
 * Reads `Authorization: Bearer <token>`, checks its login session is live and loads the user
 * fresh from the database (so a logout, a disabled user, a changed role or a suspended tenant takes effect at once) and checks the route's @Roles. A route that
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
    assignLogFields(this.logger, { userId: user.id, tenantId: user.tenantId ?? undefined });

    const allowed = this.reflector.getAllAndOverride<UserRole[] | undefined>(ROLES_KEY, targets) ?? [];
    if (!allowed.includes(user.role)) throw new ForbiddenRoleError(user.role, allowed);
    return true;
  }

  private async authenticate(header: string | string[] | undefined): Promise<AdminUser> {
    if (typeof header !== 'string' || header.trim() === '') {
      throw new UnauthenticatedError('No access token was sent.');
    }
    const token = bearerTokenOf(header);
    if (!token) throw new UnauthenticatedError('The Authorization header is not "Bearer <token>".');

    const claims = await this.tokens.verify(token);
    if (!claims) throw new UnauthenticatedError('The access token is invalid or expired.');

    // One primary-key read answers both questions: is the login session still live (not logged
    // out, not rotated away, not revoked for a reused refresh token), and who is the user now.
    const session = await this.prisma.authSession.findUnique({
      where: { id: claims.sessionId },
      select: { userId: true, revokedAt: true, user: { select: { id: true, email: true, name: true, role: true, tenantId: true, disabledAt: true, tenant: { select: { status: true } } } } },
    });
    if (!session || session.revokedAt || session.userId !== claims.userId) {
      throw new UnauthenticatedError('The login session of this token has ended.');
    }
    const { user } = session;
    if (!canUseConsole(user)) throw new UnauthenticatedError('The account of this token is disabled or belongs to no tenant.');
    // The session stays: reactivating the tenant lets the same login go on.
    if (user.tenant?.status === 'suspended') throw new TenantSuspendedError();
    return { id: user.id, email: user.email, name: user.name, role: user.role, tenantId: user.tenantId };
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null for anything else. */
export function bearerTokenOf(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}
