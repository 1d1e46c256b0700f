// Checks that Postgres and Redis answer before the demo does anything slow, and creates the
// demo database when it does not exist yet. Each failure is one line naming the URL and the fix.
const net = require('node:net');

const START_HINT = 'Start them with `docker compose up -d postgres redis` (or your system services), or point DATABASE_URL / REDIS_URL at running ones in .env.';

class PreflightError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PreflightError';
    this.code = 'preflight-failed';
  }
}

/** The URL with its password masked, for messages. */
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** A plain TCP connect: needs no installed package, so it runs before `npm ci` on a fresh clone. */
function tcpReachable(host, port, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done('timed out'));
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(err.code || err.message));
  });
}

/** Why `url` cannot be reached (e.g. ECONNREFUSED), or null when something answers there. */
async function unreachable(what, url, defaultPort) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new PreflightError(`${what} URL is not a valid URL: ${redact(url)}. Fix it in .env.`);
  }
  if (!u.hostname) return null; // a Unix socket given as a query parameter: the deeper check covers it
  return tcpReachable(u.hostname, Number(u.port || defaultPort));
}

async function checkReachable(what, url, defaultPort) {
  const problem = await unreachable(what, url, defaultPort);
  if (problem) throw new PreflightError(`${what} is not reachable at ${redact(url)} (${problem}). ${START_HINT}`);
}

function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** Connects to DATABASE_URL; when the database is missing, creates it from the `postgres` db. */
async function ensureDatabase(url) {
  const { Client } = require('pg');
  const connect = async (connectionString) => {
    const client = new Client({ connectionString, connectionTimeoutMillis: 5000 });
    await client.connect();
    return client;
  };
  try {
    await (await connect(url)).end();
    return false;
  } catch (err) {
    if (err.code !== '3D000') {
      throw new PreflightError(`Postgres refused ${redact(url)}: ${err.message}. ${START_HINT}`);
    }
  }
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  let client;
  try {
    client = await connect(admin.toString());
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    if (err.code === '42P04') return false; // created meanwhile by someone else: fine
    throw new PreflightError(
      `Could not create the database "${name}" through ${redact(admin.toString())}: ${err.message}. ` +
        'Create it yourself or use a role allowed to CREATE DATABASE.',
    );
  } finally {
    await client?.end().catch(() => {});
  }
  return true;
}

async function checkRedis(url) {
  const Redis = require('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => {}); // reported through the rejected promise below
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== 'PONG') throw new Error(`PING answered ${pong}`);
  } catch (err) {
    throw new PreflightError(`Redis did not answer at ${redact(url)}: ${err.message}. ${START_HINT}`);
  } finally {
    redis.disconnect();
  }
}

/** Resolves when nothing listens on host:port; rejects with a clear message otherwise. */
function checkPortFree(host, port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err) =>
      reject(
        new PreflightError(
          `Port ${port} on ${host} is taken (${err.code}). Stop what uses it or set PORT to a free port (PORT=3100 npm run demo).`,
        ),
      ),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

module.exports = { PreflightError, redact, unreachable, checkReachable, ensureDatabase, checkRedis, checkPortFree, databaseName };
