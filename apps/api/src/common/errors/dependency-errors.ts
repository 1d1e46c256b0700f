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
// P2028: an interactive transaction could not start (or was closed) in time — the pool had no
// connection to give while the database was away; nothing was committed (found by the chaos run).
const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

// What the pg driver adapter reports when the connection itself failed mid-query (it throws a
// DriverAdapterError, recognised by name: @prisma/driver-adapter-utils is not ours to import).
const UNAVAILABLE_ADAPTER_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);

function isConnectionFailure(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    // Raw queries (P2010) and others wrap the adapter's error in meta.driverAdapterError.
    return isConnectionFailure((err.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  if (!(err instanceof Error)) return false;
  if (err.name === 'DriverAdapterError') {
    const kind = (err.cause as { kind?: unknown } | undefined)?.kind;
    return typeof kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(kind);
  }
  return isPgConnectionError(err);
}

// Errors node-postgres itself throws when the adapter lets them through (starting a transaction):
// a socket error, a server shutting down (SQLSTATE 57P01-57P03), a lost connection (class 08),
// and its own "Connection terminated" errors, which carry no code at all.
const PG_CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03']);

function isPgConnectionError(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return PG_CONNECTION_CODES.has(code) || code.startsWith('08');
  return /^Connection terminated/.test(err.message);
}

/** Infrastructure failures that deserve a 503 rather than an anonymous 500. */
export function asDependencyError(err: unknown): ApiError | undefined {
  if (
    (err instanceof Prisma.PrismaClientKnownRequestError && UNAVAILABLE_CODES.has(err.code)) ||
    err instanceof Prisma.PrismaClientInitializationError ||
    isConnectionFailure(err)
  ) {
    return new DatabaseUnavailableError();
  }
  return undefined;
}
