import { createServer, type Server, type Socket } from 'node:net';
import { DatabaseError } from 'pg';
import { createPrismaClient, Prisma, type PrismaClient } from '@switchboard/db';
import { toErrorResponse } from '../http/all-exceptions.filter';
import { asDependencyError, DatabaseUnavailableError } from './dependency-errors';

// Issue #16 item 8: during a Postgres restart the API answered 503 until the server began to
// start up, then 500 (SQLSTATE 57P03 wrapped by Prisma's adapter). Every connection-class and
// shutdown/startup error must be a 503 however it reaches us. The first half sends real
// queries through Prisma and its pg adapter to a fake server that answers as Postgres does in
// those states; the second builds each wrapper shape by hand.

/** A Postgres ErrorResponse message ('E'): severity, SQLSTATE and text. */
function errorResponse(sqlstate: string, message: string): Buffer {
  const fields = Buffer.concat(
    [['S', 'FATAL'], ['V', 'FATAL'], ['C', sqlstate], ['M', message]].map(([k, v]) => Buffer.from(`${k}${v}\0`, 'utf8')).concat(Buffer.from([0])),
  );
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

const AUTH_OK = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]); // 'R' AuthenticationOk
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]); // 'Z' ReadyForQuery, idle

/**
 * A server speaking just enough of the protocol: `at-connect` refuses the start-up message (how
 * 57P03 and 53300 arrive), `mid-query` accepts it and then ends the first query with a FATAL
 * error and a closed socket (how 57P01/57P02 arrive when the server shuts down).
 */
async function fakePostgres(when: 'at-connect' | 'mid-query', sqlstate: string, message: string): Promise<{ server: Server; url: string }> {
  const server = createServer((socket: Socket) => {
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', () => {
      if (when === 'at-connect' || started) {
        socket.end(errorResponse(sqlstate, message));
        return;
      }
      started = true;
      socket.write(Buffer.concat([AUTH_OK, READY]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, url: `postgresql://u:p@127.0.0.1:${port}/db?sslmode=disable` };
}

const STATES = [
  ['at-connect', '57P03', 'the database system is starting up'],
  ['at-connect', '53300', 'sorry, too many clients already'],
  ['at-connect', '08004', 'server rejected the connection'],
  ['mid-query', '57P01', 'terminating connection due to administrator command'],
  ['mid-query', '57P02', 'terminating connection because of crash of another server process'],
  ['mid-query', '08006', 'connection failure'],
] as const;

const QUERIES: [string, (db: PrismaClient) => Promise<unknown>][] = [
  ['a model query', (db) => db.tenant.findFirst()],
  ['a raw query', (db) => db.$queryRaw`SELECT 1`],
  ['a raw statement', (db) => db.$executeRaw`SELECT 1`],
  ['an interactive transaction', (db) => db.$transaction(async (tx) => tx.tenant.findFirst())],
  ['a batch transaction', (db) => db.$transaction([db.tenant.findFirst(), db.tenant.count()])],
];

describe.each(STATES)('Postgres answering %s with %s', (when, sqlstate, message) => {
  let server: Server;
  let db: PrismaClient;

  beforeAll(async () => {
    const fake = await fakePostgres(when, sqlstate, message);
    server = fake.server;
    db = createPrismaClient({ connectionString: fake.url, max: 1 });
  });
  afterAll(async () => {
    await db.$disconnect().catch(() => undefined);
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(QUERIES)('%s answers 503 database-unavailable with Retry-After', async (_what, run) => {
    const thrown = await run(db).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(thrown).toBeDefined();
    const res = toErrorResponse(thrown);
    expect({ status: res.status, code: res.body.error.code, retryAfter: res.retryAfterSeconds }).toEqual({ status: 503, code: 'database-unavailable', retryAfter: 5 });
  });
});

describe('every wrapper shape of a connection-class error', () => {
  // What @prisma/adapter-pg throws: a DriverAdapterError whose cause is the mapped payload.
  const adapterError = (cause: Record<string, unknown>) => Object.assign(new Error(String(cause.message ?? cause.kind)), { name: 'DriverAdapterError', cause });
  const postgresPayload = (code: string) => ({ kind: 'postgres', code, originalCode: code, severity: 'FATAL', message: 'the database system is starting up', originalMessage: 'the database system is starting up' });
  const pgError = (code: string) => Object.assign(new DatabaseError('the database system is starting up', 0, 'error'), { code, severity: 'FATAL' });

  it.each(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004', '08P01'])('maps SQLSTATE %s in every wrapper to a 503', (code) => {
    const shapes: [string, unknown][] = [
      ['raw pg DatabaseError', pgError(code)],
      ['DriverAdapterError (kind postgres)', adapterError(postgresPayload(code))],
      ['P2039 with meta.driverAdapterError', new Prisma.PrismaClientKnownRequestError(`Database error. Code: \`${code}\`. Message: \`x\``, { code: 'P2039', clientVersion: 't', meta: { driverAdapterError: adapterError(postgresPayload(code)) } })],
      ['P2010 with meta.driverAdapterError', new Prisma.PrismaClientKnownRequestError(`Raw query failed. Code: \`${code}\`. Message: \`x\``, { code: 'P2010', clientVersion: 't', meta: { driverAdapterError: adapterError(postgresPayload(code)) } })],
      ['P2039 without meta (message only)', new Prisma.PrismaClientKnownRequestError(`Database error. Code: \`${code}\`. Message: \`x\``, { code: 'P2039', clientVersion: 't' })],
      ['PrismaClientUnknownRequestError (message only)', new Prisma.PrismaClientUnknownRequestError(`Database error. Code: \`${code}\`. Message: \`x\``, { clientVersion: 't' })],
      ['an Error whose cause is the pg error', new Error('query failed', { cause: pgError(code) })],
      ['an Error whose cause is the adapter error', new Error('query failed', { cause: adapterError(postgresPayload(code)) })],
      ['an AggregateError holding it', new AggregateError([new Error('other address'), pgError(code)], 'all addresses failed')],
    ];
    const missed = shapes.filter(([, err]) => !(asDependencyError(err) instanceof DatabaseUnavailableError)).map(([name]) => name);
    expect(missed).toEqual([]);
  });

  it('maps the server-state messages an UnknownRequestError carries without a code', () => {
    for (const message of ['the database system is starting up', 'the database system is shutting down', 'the database system is in recovery mode', 'terminating connection due to administrator command', 'sorry, too many clients already']) {
      expect(asDependencyError(new Prisma.PrismaClientUnknownRequestError(message, { clientVersion: 't' }))).toBeInstanceOf(DatabaseUnavailableError);
    }
  });

  it('leaves query errors alone in every wrapper (a unique violation, a syntax error, a NUL byte)', () => {
    for (const code of ['23505', '42601', '22021', '22P05', '22008']) {
      expect(asDependencyError(pgError(code))).toBeUndefined();
      expect(asDependencyError(adapterError(postgresPayload(code)))).toBeUndefined();
      const meta = { driverAdapterError: adapterError({ ...postgresPayload(code), message: 'bad', originalMessage: 'bad' }) };
      expect(asDependencyError(new Prisma.PrismaClientKnownRequestError(`Database error. Code: \`${code}\`. Message: \`bad\``, { code: 'P2039', clientVersion: 't', meta }))).toBeUndefined();
    }
  });
});
