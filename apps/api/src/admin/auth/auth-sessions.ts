import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, type Prisma, type UserRole } from '@switchboard/db';
import { SessionEndedError, type SessionEndedCode } from './auth-session-errors';
import { canUseConsole } from './admin-user';
import { hashRefreshToken, newRefreshToken } from './refresh-token';
import { TenantSuspendedError } from '../../tenant-status/tenant-suspended.error';

/** A refresh token lives this long after it is issued; each refresh issues the next (sliding). */
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A refresh token just issued, and the AuthSession row that holds its hash. */
export interface IssuedRefresh {
  sessionId: string;
  refreshToken: string;
  expiresAt: Date;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  tenantId: string | null;
  disabledAt: Date | null;
}

const userSelect = { id: true, email: true, name: true, role: true, tenantId: true, disabledAt: true, tenant: { select: { status: true } } } as const;

/**
 * The console's login sessions (AuthSession rows): started at login, rotated at each refresh,
 * ended at logout. Every change to a family runs under a per-family advisory lock, so a
 * rotation racing a reuse or a logout cannot leave a live token behind in a revoked family.
 */
@Injectable()
export class AuthSessions {
  constructor(private readonly prisma: PrismaService) {}

  start(userId: string): Promise<IssuedRefresh> {
    return issue(this.prisma, userId, randomUUID(), new Date());
  }

  /**
   * Spends a refresh token and issues the next one in its family. A token already spent (or
   * revoked) revokes the whole family: either the client or a thief holds a copy, and they
   * cannot be told apart. Throws SessionEndedError, after the revocation is committed. A user of a
   * suspended tenant gets TenantSuspendedError and the token is left unspent, so the same login
   * goes on once the tenant is reactivated.
   */
  async rotate(refreshToken: string | undefined): Promise<{ user: SessionUser; next: IssuedRefresh }> {
    if (!refreshToken) throw new SessionEndedError('refresh-token-missing');
    const tokenHash = hashRefreshToken(refreshToken);
    const found = await this.prisma.authSession.findUnique({ where: { tokenHash }, select: { familyId: true } });
    if (!found) throw new SessionEndedError('refresh-token-invalid');

    const outcome = await this.prisma.$transaction(async (tx): Promise<{ refused: SessionEndedCode | 'tenant-suspended' } | { user: SessionUser; next: IssuedRefresh }> => {
      await lockFamily(tx, found.familyId);
      const row = await tx.authSession.findUniqueOrThrow({
        where: { tokenHash },
        select: { id: true, userId: true, familyId: true, expiresAt: true, revokedAt: true, user: { select: userSelect } },
      });
      const now = new Date();
      if (row.revokedAt) {
        await revokeFamily(tx, row.familyId, now);
        return { refused: 'refresh-token-reused' };
      }
      if (row.expiresAt <= now) return { refused: 'refresh-token-expired' };
      if (!canUseConsole(row.user)) {
        await revokeFamily(tx, row.familyId, now);
        return { refused: 'account-disabled' };
      }
      if (row.user.tenant?.status === 'suspended') return { refused: 'tenant-suspended' };
      await tx.authSession.update({ where: { id: row.id }, data: { revokedAt: now, lastUsedAt: now } });
      return { user: row.user, next: await issue(tx, row.userId, row.familyId, now) };
    });
    if ('refused' in outcome) throw outcome.refused === 'tenant-suspended' ? new TenantSuspendedError() : new SessionEndedError(outcome.refused);
    return outcome;
  }

  /** Logout: revokes the family of the refresh token and of the access token's session, when given. */
  async end(by: { refreshToken?: string; sessionId?: string }): Promise<void> {
    const families = new Set<string>();
    if (by.refreshToken) {
      const row = await this.prisma.authSession.findUnique({ where: { tokenHash: hashRefreshToken(by.refreshToken) }, select: { familyId: true } });
      if (row) families.add(row.familyId);
    }
    if (by.sessionId) {
      const row = await this.prisma.authSession.findUnique({ where: { id: by.sessionId }, select: { familyId: true } });
      if (row) families.add(row.familyId);
    }
    for (const familyId of families) {
      await this.prisma.$transaction(async (tx) => {
        await lockFamily(tx, familyId);
        await revokeFamily(tx, familyId, new Date());
      });
    }
  }
}

async function issue(db: Pick<Prisma.TransactionClient, 'authSession'>, userId: string, familyId: string, now: Date): Promise<IssuedRefresh> {
  const refreshToken = newRefreshToken();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  const row = await db.authSession.create({
    data: { userId, familyId, tokenHash: hashRefreshToken(refreshToken), expiresAt, createdAt: now },
    select: { id: true },
  });
  return { sessionId: row.id, refreshToken, expiresAt };
}

/** Serialises every change to one family until the transaction ends. */
async function lockFamily(tx: Prisma.TransactionClient, familyId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${familyId}, 0))`;
}

async function revokeFamily(tx: Prisma.TransactionClient, familyId: string, now: Date): Promise<void> {
  await tx.authSession.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
}
