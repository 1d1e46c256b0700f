import { Logger } from '@nestjs/common';

// AUTH_SECRET signs the console's access tokens. It belongs in libs/config's envSchema; until
// it is there it is read here, with a development default that production refuses.
const DEV_SECRET = 'switchboard-dev-auth-secret-change-me-0123456789';
export const MIN_SECRET_LENGTH = 32;

export class AuthSecretError extends Error {
  readonly code = 'invalid-env';
}

export function readAuthSecret(env: NodeJS.ProcessEnv = process.env): Uint8Array {
  const value = env.AUTH_SECRET || undefined;
  if (value === undefined) {
    if (env.NODE_ENV === 'production') {
      throw new AuthSecretError('AUTH_SECRET is not set. Set it to a random string of at least 32 characters.');
    }
    if (env.NODE_ENV !== 'test') {
      new Logger('AdminAuth').warn('AUTH_SECRET is not set; using the development default. Never do this in production.');
    }
    return new TextEncoder().encode(DEV_SECRET);
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new AuthSecretError(`AUTH_SECRET is ${value.length} characters long; it needs at least ${MIN_SECRET_LENGTH}.`);
  }
  return new TextEncoder().encode(value);
}
