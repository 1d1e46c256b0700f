import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { z } from 'zod';
import { InvalidCredentialsError } from '../admin-errors';
import { AccessTokenService, ACCESS_TOKEN_TTL_SECONDS } from './access-token.service';
import { AuthSessions, type IssuedRefresh } from './auth-sessions';
import { LoginThrottle } from './login-throttle';
import { canUseConsole, publicUser, toPublicUser, type PublicUser } from './admin-user';
import { decoyPasswordHash, verifyPassword } from './password';
import { TenantSuspendedError } from '../../tenant-status/tenant-suspended.error';

export const loginBody = z.strictObject({
  // Emails are stored lower-case (users are created that way): any letter case logs in.
  email: z.string().trim().toLowerCase().min(1).max(320),
  password: z.string().min(1).max(1024),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The JSON answer of login and refresh. The refresh token travels only in its cookie. */
export const loginAnswer = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  /** Seconds the access token is valid for. */
  expiresIn: z.number().int(),
  user: publicUser,
});
export type LoginResult = z.infer<typeof loginAnswer>;

/** What login and refresh hand the controller: the JSON answer and the refresh token for the cookie. */
export interface IssuedLogin {
  result: LoginResult;
  refresh: IssuedRefresh;
}

/** Email and password in, an access token and a new login session out. One answer for every kind of failure. */
@Injectable()
export class LoginUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tokens: AccessTokenService,
    private readonly sessions: AuthSessions,
    private readonly throttle: LoginThrottle,
  ) {}

  /** `address` is the client's IP, for the failed-login throttle. */
  async execute({ email, password }: LoginBody, address: string): Promise<IssuedLogin> {
    // Before the password is checked: during a lock-out even the right password is refused.
    await this.throttle.assertAllowed(email, address);
    const user = await this.prisma.user.findUnique({ where: { email }, include: { tenant: { select: { status: true } } } });
    const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !ok || !canUseConsole(user)) {
      await this.throttle.recordFailure(email, address);
      throw new InvalidCredentialsError();
    }
    await this.throttle.recordSuccess(email, address);
    // Told only to whoever knows the password: 403, and no login session is started.
    if (user.tenant?.status === 'suspended') throw new TenantSuspendedError();

    const refresh = await this.sessions.start(user.id);
    return { result: await loginResult(this.tokens, user, refresh), refresh };
  }
}

export async function loginResult(tokens: AccessTokenService, user: PublicUser, refresh: IssuedRefresh): Promise<LoginResult> {
  return {
    accessToken: await tokens.sign({ userId: user.id, sessionId: refresh.sessionId }),
    tokenType: 'Bearer',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    user: toPublicUser(user),
  };
}
