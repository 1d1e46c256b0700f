import { Logger } from '@nestjs/common';
import { DEV_AUTH_SECRET, type Env } from '@switchboard/config';

/**
 * The HS256 key of the console's access tokens, from AUTH_SECRET (validated by loadEnv, which
 * refuses the development default in production). Development warns that it uses the default.
 */
export function authSecretKey(env: Pick<Env, 'AUTH_SECRET' | 'NODE_ENV'>): Uint8Array {
  if (env.AUTH_SECRET === DEV_AUTH_SECRET && env.NODE_ENV === 'development') {
    new Logger('AdminAuth').warn('AUTH_SECRET is not set; using the development default. Never do this in production.');
  }
  return new TextEncoder().encode(env.AUTH_SECRET);
}
