import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const ADMIN = join(ROOT, 'apps', 'admin');
const BUILT_INDEX = join(ADMIN, 'dist', 'index.html');
// Several browser spec files may start at once; the lock makes them build one at a time.
const LOCK = '/tmp/switchboard-console-build.lock';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

function isStale(): boolean {
  if (!existsSync(BUILT_INDEX)) return true;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((p) => join(ADMIN, p)).filter(existsSync);
  return Math.max(...sources.map(newestMtime)) > statSync(BUILT_INDEX).mtimeMs;
}

/** Builds apps/admin into apps/admin/dist when the build is missing or older than its sources. */
export function ensureConsoleBuilt(): void {
  if (!isStale()) return;
  execFileSync('flock', [LOCK, 'npm', 'run', 'build', '--silent', '-w', 'apps/admin'], { cwd: ROOT, stdio: 'pipe', timeout: 180_000 });
}
