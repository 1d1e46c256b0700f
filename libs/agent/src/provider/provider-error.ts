// A provider failure, thrown after the provider's own bounded retries. The engine maps `kind`
// to a provider-* outcome (engine.md §4): it never reaches the host from a speak round.

export type ProviderErrorKind =
  | 'overloaded'
  | 'rate-limited'
  | 'timeout'
  | 'network'
  | 'empty'
  | 'quota'
  | 'auth'
  | 'context'
  | 'invalid'
  | 'unknown';

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  message: string;
  /** How long the server asked us to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  /** When a quota resets, when the provider said. */
  resetAt?: Date;
  status?: number;
  cause?: unknown;
}

export class ProviderError extends Error {
  readonly code = 'provider-error';
  readonly kind: ProviderErrorKind;
  readonly retryAfterMs?: number;
  readonly resetAt?: Date;
  readonly status?: number;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.retryAfterMs = init.retryAfterMs;
    this.resetAt = init.resetAt;
    this.status = init.status;
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}
