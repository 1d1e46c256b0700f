import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { jwtVerify, SignJWT } from 'jose';
import { ENV } from '../../config/env.module';
import { authSecretKey } from './auth-secret';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-console';
/** Access tokens are short-lived; the console logs in again when one expires. */
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 60;

/** Signs and checks the console's HS256 access tokens. The token carries only the user id. */
@Injectable()
export class AccessTokenService {
  private readonly secret: Uint8Array;

  constructor(@Inject(ENV) env: Env) {
    this.secret = authSecretKey(env);
  }

  sign(userId: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.secret);
  }

  /** The user id of a valid token, or null for a forged, expired or malformed one. */
  async verify(token: string): Promise<string | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      return typeof payload.sub === 'string' ? payload.sub : null;
    } catch {
      return null;
    }
  }
}
