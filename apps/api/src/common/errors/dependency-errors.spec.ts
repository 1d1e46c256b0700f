import { Prisma } from '@switchboard/db';
import { asDependencyError, DatabaseUnavailableError } from './dependency-errors';

const known = (code: string, message = 'x') => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: 'test' });

describe('asDependencyError', () => {
  it.each(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028'])('maps %s (database away or no connection) to a retryable 503', (code) => {
    const err = asDependencyError(known(code));
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect(err).toMatchObject({ status: 503, code: 'database-unavailable', retryAfterSeconds: 5 });
  });

  // The shape @prisma/adapter-pg throws when its connection was reset in the middle of a query.
  const adapterError = (kind: string) => Object.assign(new Error(kind), { name: 'DriverAdapterError', cause: { kind } });

  it.each(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections'])('maps a driver adapter %s to a retryable 503', (kind) => {
    expect(asDependencyError(adapterError(kind))).toBeInstanceOf(DatabaseUnavailableError);
  });

  it('maps a raw query (P2010) whose connection closed to a retryable 503, not a query error', () => {
    const raw = new Prisma.PrismaClientKnownRequestError('Raw query failed. Message: `Server has closed the connection.`', {
      code: 'P2010',
      clientVersion: 'test',
      meta: { driverAdapterError: adapterError('ConnectionClosed') },
    });
    expect(asDependencyError(raw)).toBeInstanceOf(DatabaseUnavailableError);
    const syntax = new Prisma.PrismaClientKnownRequestError('Raw query failed.', { code: 'P2010', clientVersion: 'test', meta: { driverAdapterError: adapterError('PostgresError') } });
    expect(asDependencyError(syntax)).toBeUndefined();
  });

  it.each([
    ['a connection pg saw terminated', Object.assign(new Error('Connection terminated unexpectedly'), {})],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a lost connection (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
  ])('maps %s (thrown by node-postgres itself) to a retryable 503', (_what, err) => {
    expect(asDependencyError(err)).toBeInstanceOf(DatabaseUnavailableError);
  });

  it('leaves other node-postgres errors (a syntax error) alone', () => {
    expect(asDependencyError(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }))).toBeUndefined();
  });

  it('leaves driver adapter query errors (a unique violation) alone', () => {
    expect(asDependencyError(adapterError('UniqueConstraintViolation'))).toBeUndefined();
  });

  it('leaves query errors (a unique violation) to their own handling', () => {
    expect(asDependencyError(known('P2002'))).toBeUndefined();
    expect(asDependencyError(new Error('boom'))).toBeUndefined();
  });
});
