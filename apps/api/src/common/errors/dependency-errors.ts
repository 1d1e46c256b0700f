import { Prisma } from '@switchboard/db';
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

// Prisma's codes for "cannot reach / lost / no free connection", as opposed to query errors.
const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** Infrastructure failures that deserve a 503 rather than an anonymous 500. */
export function asDependencyError(err: unknown): ApiError | undefined {
  if (
    (err instanceof Prisma.PrismaClientKnownRequestError && UNAVAILABLE_CODES.has(err.code)) ||
    err instanceof Prisma.PrismaClientInitializationError
  ) {
    return new DatabaseUnavailableError();
  }
  return undefined;
}
