import { Prisma } from './generated/prisma/client';

// Telling "the database is away" (a restart, a failover, a lost connection, no free connection)
// from an error of the query itself, through every way Prisma and its pg adapter wrap it.

// Prisma's codes for "cannot reach / lost / no free connection", as opposed to query errors.
// P2028: an interactive transaction could not start (or was closed) in time — the pool had no
// connection to give while the database was away; nothing was committed (found by the chaos run).
const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

// What the pg driver adapter reports when the connection itself failed mid-query (it throws a
// DriverAdapterError, recognised by name: @prisma/driver-adapter-utils is not ours to import).
// Any other Postgres error comes as kind "postgres" with its SQLSTATE in `code`/`originalCode`.
const UNAVAILABLE_ADAPTER_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);

// Connection-class and server-state errors, by SQLSTATE: class 08 (connection exception),
// 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up or in
// recovery), 53300 too many connections; and the socket errors node-postgres passes on.
const UNAVAILABLE_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);

function isUnavailableCode(code: unknown): boolean {
  return typeof code === 'string' && (UNAVAILABLE_ERROR_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code));
}

// PrismaClientUnknownRequestError keeps only the message of what it wraps, so the SQLSTATE
// (`Code: \`57P03\``) or the server's own words are all there is to go on. node-postgres'
// "Connection terminated…" errors carry no code at all.
const UNAVAILABLE_MESSAGE =
  /Code: `(08[0-9A-Z]{3}|57P0[123]|53300)`|^Connection terminated|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection due to administrator command|sorry, too many clients already|Server has closed the connection|Can't reach database server|timeout exceeded when trying to connect/;

/** One error of the chain, without looking at what it wraps. */
function isUnavailableItself(err: object): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError && UNAVAILABLE_CODES.has(err.code)) return true;
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if ((err as { name?: unknown }).name === 'DriverAdapterError') {
    const cause = (err as { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } }).cause;
    if (typeof cause?.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(cause.kind)) return true;
    return isUnavailableCode(cause?.originalCode) || isUnavailableCode(cause?.code);
  }
  if (isUnavailableCode((err as { code?: unknown }).code)) return true;
  const message = (err as { message?: unknown }).message;
  const codeless = typeof (err as { code?: unknown }).code !== 'string';
  const prisma = err instanceof Prisma.PrismaClientUnknownRequestError || err instanceof Prisma.PrismaClientKnownRequestError;
  return (prisma || codeless) && typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/**
 * True when `err` says the database could not be reached or the connection was lost (not a
 * query error): the API answers 503 `database-unavailable`, the worker retries the turn in place.
 * Walks the whole chain however Prisma and its pg adapter wrapped it: `meta.driverAdapterError`
 * (P2010 raw queries, P2039 other database errors), `cause` (Error causes, the adapter's
 * payload) and an AggregateError's `errors` (pg tries every address of a host name).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 8) return false;
  if (isUnavailableItself(err)) return true;
  const wrapped = [
    (err as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError,
    (err as { cause?: unknown }).cause,
    ...(err instanceof AggregateError ? err.errors : []),
  ];
  return wrapped.some((inner) => inner !== err && isDatabaseUnavailable(inner, depth + 1));
}
