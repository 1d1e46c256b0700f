import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { jwtVerify, SignJWT } from 'jose';
import { ENV } from '../../config/env.module';
import { authSecretKey } from './auth-secret';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-console';
/** Access tokens are short-lived; the console gets the next one with its refresh cookie. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** Who an access token speaks for: the user, and the login session (AuthSession row) it came with. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/**
 * Signs and checks the console's HS256 access tokens. The token carries the user id (`sub`) and
 * its login session (`sid`), which the guard checks is not revoked, so a logout ends it at once.
 */
@Injectable()
export class AccessTokenService {
  private readonly secret: Uint8Array;

  constructor(@Inject(ENV) env: Env) {
    this.secret = authSecretKey(env);
  }

  sign({ userId, sessionId }: AccessClaims): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.secret);
  }

  /** The claims of a valid token, or null for a forged, expired, malformed or session-less one. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}
