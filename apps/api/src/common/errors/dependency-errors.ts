import { isDatabaseUnavailable } from '@switchboard/db';
import { ApiError } from './api-error';

/** A dependency (database) is unreachable: the client may retry; nothing was changed. */
export class DatabaseUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'database-unavailable';
  /** Seconds a client should wait before retrying; sent as Retry-After. */
  readonly retryAfterSeconds = 5;

  constructor() {
    super('The database is not reachable right now. Nothing was stored; retry in a few seconds.');
  }
}

/** Infrastructure failures that deserve a 503 rather than an anonymous 500. */
export function asDependencyError(err: unknown): ApiError | undefined {
  if (isDatabaseUnavailable(err)) {
    return new DatabaseUnavailableError();
  }
  return undefined;
}
