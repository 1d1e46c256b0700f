// Runs the API and the worker as child processes with prefixed output, waits until the API is
// ready, and stops both on one signal. Children get their own process group so a terminal's
// Ctrl-C reaches only this script, which sends each child exactly one SIGTERM: Nest's shutdown
// hooks handle the first signal gracefully, and a second one would kill the process mid-close.
const { spawn } = require('node:child_process');
const readline = require('node:readline');

const STOP_GRACE_MS = 15_000;

function startChild(name, script, { cwd, env }) {
  const child = spawn(process.execPath, [script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.label = name;
  return child;
}

/** Polls GET /health/ready until it answers 2xx; rejects if a child exits or time runs out. */
async function waitForReady(baseUrl, children, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let childExit;
  for (const child of children) {
    child.exited.then(({ code, signal }) => {
      childExit ??= `${child.label} exited (${signal ?? `code ${code}`}) before the API was ready; its log is above`;
    });
  }
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (childExit) throw new Error(childExit);
    try {
      const res = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the API was not ready after ${timeoutMs / 1000} s (last answer: ${last})`);
}

/** SIGTERM to each running child once, SIGKILL after the grace period. */
async function stopChildren(children) {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await child.exited;
      clearTimeout(timer);
    }),
  );
}

module.exports = { startChild, waitForReady, stopChildren };
