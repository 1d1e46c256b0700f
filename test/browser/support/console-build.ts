import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'build-console-if-stale.js');
const LOCK = '/tmp/switchboard-console-build.lock';

/**
 * Makes sure apps/admin/dist is built from the current sources (once per run: later callers
 * find it fresh). The API serves whatever is in dist at request time, so no restart is needed.
 */
export function ensureConsoleBuilt(): void {
  try {
    execFileSync('flock', [LOCK, process.execPath, SCRIPT], { stdio: 'pipe', timeout: 180_000 });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`Building the console failed (npm run build -w apps/admin):\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}
