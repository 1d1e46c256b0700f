import { envSchema, productionSecretIssues, type Env, type QueueBackend } from './env.schema';

export class EnvValidationError extends Error {
  readonly code = 'invalid-env';
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      'Invalid environment: ' +
        issues.map((i) => `${i.variable}: ${i.message}`).join('; ') +
        '. Fix these variables (see .env.example) and start again.',
    );
    this.name = 'EnvValidationError';
  }
}

/** Parses and validates the environment; throws EnvValidationError naming each bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset" so `FOO=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new EnvValidationError(
      parsed.error.issues.map((i) => ({ variable: i.path.join('.'), message: i.message })),
    );
  }
  const unsafe = productionSecretIssues(parsed.data);
  if (unsafe.length > 0) throw new EnvValidationError(unsafe);
  // Chosen once here: REDIS_URL has a default, so "unset" is read from the source itself.
  return { ...parsed.data, QUEUE_BACKEND: parsed.data.QUEUE_BACKEND ?? backendWhenUnset(cleaned) };
}

/**
 * The backend of an environment without QUEUE_BACKEND: redis when REDIS_URL is set (not empty),
 * else postgres. Read from the raw environment, before REDIS_URL's default fills it in.
 */
export function backendWhenUnset(source: { REDIS_URL?: string }): QueueBackend {
  return source.REDIS_URL ? 'redis' : 'postgres';
}
