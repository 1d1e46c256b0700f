import { readFileSync } from 'node:fs';
import path from 'node:path';

// `npm ci` refuses a lockfile in which a dependency's optional dependency has no entry
// ("Missing: @dbmate/darwin-arm64@ from lock file"), even one for another platform. The registry
// these machines use lacks some platform builds, so `npm install` here can drop their entries
// (docs/dependencies.md). This catches that before CI's fresh `npm ci` does.

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.join(__dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Node's lookup: node_modules/<name> next to the package, then in each parent folder. */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

it('has an entry for every optional dependency of every locked package, whatever its platform', () => {
  const missing = Object.entries(lock.packages).flatMap(([location, entry]) =>
    Object.keys(entry.optionalDependencies ?? {})
      .filter((name) => !resolves(location, name))
      .map((name) => `${location || '(root)'} → ${name}`),
  );
  expect(missing).toEqual([]);
});
