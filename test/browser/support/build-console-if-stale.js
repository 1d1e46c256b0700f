// Builds apps/admin into apps/admin/dist when the build is missing or older than its sources.
// Run under `flock` by console-build.ts, so parallel jest workers build once: whoever gets the
// lock second finds the build fresh and returns at once.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..', '..');
const ADMIN = join(ROOT, 'apps', 'admin');
const BUILT_INDEX = join(ADMIN, 'dist', 'index.html');
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'precompress.ts', 'package.json', 'tsconfig.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

function isStale() {
  if (!existsSync(BUILT_INDEX)) return true;
  const newest = Math.max(...SOURCES.map((p) => join(ADMIN, p)).filter(existsSync).map(newestMtime));
  return newest > statSync(BUILT_INDEX).mtimeMs;
}

if (isStale()) {
  // NODE_ENV=production: jest sets it to `test`, and Vite would then bundle React's development
  // build (jsx-dev-runtime, a larger and slower console than the one shipped).
  execFileSync('npm', ['run', 'build', '--silent', '-w', 'apps/admin'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
