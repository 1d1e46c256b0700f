import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { z } from 'zod';
import { InvalidCredentialsError } from '../admin-errors';
import { AccessTokenService, ACCESS_TOKEN_TTL_SECONDS } from './access-token.service';
import { LoginThrottle } from './login-throttle';
import { toPublicUser, type PublicUser } from './admin-user';
import { decoyPasswordHash, verifyPassword } from './password';

export const loginBody = z.strictObject({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});
export type LoginBody = z.infer<typeof loginBody>;

export interface LoginResult {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: PublicUser;
}

/** Email and password in, a signed access token out. One answer for every kind of failure. */
@Injectable()
export class LoginUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tokens: AccessTokenService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** `address` is the client's IP, for the failed-login throttle. */
  async execute({ email, password }: LoginBody, address: string): Promise<LoginResult> {
    await this.throttle.assertAllowed(email, address);
    const user = await this.prisma.user.findFirst({
      where: { email: { equals: email, mode: 'insensitive' } },
    });
    const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !ok || user.disabledAt) {
      await this.throttle.recordFailure(email, address);
      throw new InvalidCredentialsError();
    }
    await this.throttle.recordSuccess(email, address);

    return {
      accessToken: await this.tokens.sign(user.id),
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      user: toPublicUser(user),
    };
  }
}
