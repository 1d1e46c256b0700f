import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The lockfile is what a fresh `npm ci` (CI, the Docker build) installs, so it is checked here,
// in npm test: where each package comes from, that each is pinned by a hash, that every
// platform's optional dependency has an entry, and that no install script runs undecided.

const ROOT = path.join(__dirname, '../..');
const LOCKFILE = path.join(ROOT, 'package-lock.json');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  hasInstallScript?: boolean;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8')) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[];
  allowScripts: Record<string, boolean>;
  devDependencies: Record<string, string>;
};

/**
 * The only entries without an integrity hash: dbmate's builds for other platforms, written into
 * the lockfile by hand because the registry mirror these machines use does not have them
 * (docs/dependencies.md, "The lockfile and platform binaries"), so their hashes could not be
 * read. `npm ci` on those platforms downloads them unverified; refresh the lockfile from the
 * public registry to add the hashes, then empty this list.
 */
const WITHOUT_INTEGRITY = ['darwin-arm64', 'darwin-x64', 'linux-arm', 'linux-arm64', 'linux-ia32', 'win32-x64'].map((p) => `node_modules/@dbmate/${p}`);

/** Entries npm downloads: not the root, not a workspace (its folder, or its node_modules link). */
const downloaded = Object.entries(lock.packages).filter(([location, entry]) => location !== '' && !entry.link && !manifest.workspaces.includes(location));

/** The package name of a lockfile location: what follows its last `node_modules/`. */
const nameOf = (location: string) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** lockfile-lint (pinned in devDependencies) with this project's policy; exit status and output. */
function lockfileLint(file: string): { status: number | null; output: string } {
  const bin = path.join(ROOT, 'node_modules/lockfile-lint/bin/lockfile-lint.js');
  const args = ['--path', file, '--type', 'npm', '--allowed-hosts', 'npm', '--validate-https', '--validate-integrity'];
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('package-lock.json', () => {
  it('passes lockfile-lint: packages only from registry.npmjs.org, over https, with sha512 integrity', () => {
    expect(manifest.devDependencies['lockfile-lint']).toMatch(/^\d+\.\d+\.\d+$/);
    const run = lockfileLint(LOCKFILE);
    expect(run.output).toContain('No issues detected');
    expect(run.status).toBe(0);
  });

  it('lockfile-lint refuses a package from another host, over http, or with a weaker hash', () => {
    const doctored = JSON.parse(JSON.stringify(lock)) as typeof lock;
    const [httpName, shaName] = downloaded.slice(0, 2).map(([location]) => location);
    doctored.packages[httpName].resolved = `http://registry.evil.example/${nameOf(httpName)}/-/x.tgz`;
    doctored.packages[shaName].resolved = `https://registry.npmjs.org/${nameOf(shaName)}/-/x.tgz`;
    doctored.packages[shaName].integrity = 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=';
    const dir = mkdtempSync(path.join(tmpdir(), 'lockfile-'));
    try {
      writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(doctored));
      const run = lockfileLint(path.join(dir, 'package-lock.json'));
      expect(run.status).not.toBe(0);
      expect(run.output).toContain('detected invalid host(s)');
      expect(run.output).toContain('detected invalid protocol');
      expect(run.output).toContain('detected invalid integrity hash type');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // lockfile-lint skips entries without `resolved` or `integrity`, and npm leaves `resolved` out
  // for packages of the default registry: so the rule for every entry is checked here too.
  it('has a sha512 integrity on every downloaded entry, and no source but https://registry.npmjs.org', () => {
    expect(downloaded.length).toBeGreaterThan(100);
    const weak = downloaded.filter(([, e]) => !e.integrity?.startsWith('sha512-')).map(([location]) => location);
    expect(weak).toEqual(WITHOUT_INTEGRITY);
    // Each exception is a platform build this project's machines never install.
    for (const location of WITHOUT_INTEGRITY) {
      const entry = lock.packages[location] as LockEntry & { optional?: boolean; os?: string[]; cpu?: string[] };
      expect(entry.optional).toBe(true);
      expect(entry.os?.includes('linux') && entry.cpu?.includes('x64')).toBeFalsy();
    }
    const elsewhere = downloaded.filter(([, e]) => e.resolved !== undefined && !e.resolved.startsWith('https://registry.npmjs.org/')).map(([location]) => location);
    expect(elsewhere).toEqual([]);
  });

  it('runs no install script that package.json has not decided in allowScripts', () => {
    const withScripts = downloaded.filter(([, e]) => e.hasInstallScript).map(([location]) => nameOf(location));
    expect(withScripts).toContain('argon2'); // the check sees install scripts at all
    const undecided = [...new Set(withScripts)].filter((name) => !(name in manifest.allowScripts));
    expect(undecided).toEqual([]);
  });

  it('has an entry for every optional dependency of every locked package, whatever its platform', () => {
    // `npm ci` refuses a lockfile in which a dependency's optional dependency has no entry
    // ("Missing: @dbmate/darwin-arm64@ from lock file"), even one for another platform. The
    // registry these machines use lacks some platform builds, so `npm install` here can drop
    // their entries (docs/dependencies.md). This catches that before CI's fresh `npm ci` does.
    const missing = Object.entries(lock.packages).flatMap(([location, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolves(location, name))
        .map((name) => `${location || '(root)'} → ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

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
