import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { envSchema } from '@switchboard/config';
import { Client } from 'pg';
import { DEMO_DEFAULTS, DemoSettingsError, demoSettingsFromEnv } from '../../prisma/seed/demo-settings';

// The plain-Node helpers of `npm run demo` are CommonJS without types.
/* eslint-disable @typescript-eslint/no-require-imports */
const { parseEnvFile, loadEnvFiles } = require('../../scripts/demo/env-files') as {
  parseEnvFile(text: string): Record<string, string>;
  loadEnvFiles(root: string, env: Record<string, string | undefined>): string[];
};
const { isUpToDate } = require('../../scripts/demo/freshness') as { isUpToDate(out: string, inputs: string[]): boolean };
const { ensureDemoSecrets, SECRETS_FILE } = require('../../scripts/demo/demo-secrets') as {
  ensureDemoSecrets(root: string, env: Record<string, string | undefined>): string[];
  SECRETS_FILE: string;
};
const { startEmbeddedPostgres, DATA_DIR, PASSWORD_FILE } = require('../../scripts/demo/embedded-postgres') as {
  startEmbeddedPostgres(root: string, log: (line: string) => void): Promise<{ url: string; port: number; stop(): Promise<void> }>;
  DATA_DIR: string;
  PASSWORD_FILE: string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const root = path.join(__dirname, '../..');

describe('.env.example', () => {
  const example = readFileSync(path.join(root, '.env.example'), 'utf8');

  it('names every variable of the env schema, set or as a commented default', () => {
    const missing = Object.keys(envSchema.shape).filter((v) => !new RegExp(`^#? ?${v}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });

  it("names every variable of the apps' own env schemas too", () => {
    // App-only schemas are module-private, so their keys are read from the source.
    const dir = path.join(root, 'apps/worker/src/config');
    const source = readdirSync(dir)
      .filter((f) => /env\.ts$/.test(f))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    const variables = [...source.matchAll(/^\s+([A-Z][A-Z0-9_]+): z\b/gm)].map((m) => m[1]);
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter((v) => !new RegExp(`^#? ?${v}=`, 'm').test(example))).toEqual([]);
  });

  it('holds values the apps accept and the demo defaults the README prints', () => {
    const vars = parseEnvFile(example);
    const known = Object.fromEntries(Object.entries(vars).filter(([k, v]) => k in envSchema.shape && v !== ''));
    expect(envSchema.safeParse(known).success).toBe(true);
    expect(vars.DEMO_API_KEY).toBe(DEMO_DEFAULTS.apiKey);
    expect(vars.DEMO_ADMIN_EMAIL).toBe(DEMO_DEFAULTS.adminEmail);
    expect(vars.DEMO_ADMIN_PASSWORD).toBe(DEMO_DEFAULTS.adminPassword);
  });
});

describe('demo env files', () => {
  it('parses comments, export, quotes and trailing comments', () => {
    expect(parseEnvFile('# c\nA=1\nexport B="x y"\nC=z # note\nD=\nE=a#b\nnot a line')).toEqual({
      A: '1',
      B: 'x y',
      C: 'z',
      D: '',
      E: 'a#b',
    });
  });

  it('lets the shell win over .env, and .env over .env.example', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-env-'));
    writeFileSync(path.join(dir, '.env'), 'A=from-env\nB=from-env\n');
    writeFileSync(path.join(dir, '.env.example'), 'A=default\nB=default\nC=default\n');
    const env: Record<string, string | undefined> = { A: 'from-shell' };
    expect(loadEnvFiles(dir, env)).toEqual(['.env', '.env.example']);
    expect(env).toEqual({ A: 'from-shell', B: 'from-env', C: 'default' });
  });
});

describe('demo secrets', () => {
  it('generates AUTH_SECRET and MASTER_KEY once, keeps them for the next run, owner-readable only', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-secrets-'));
    const first: Record<string, string | undefined> = {};
    expect(ensureDemoSecrets(dir, first)).toEqual(['AUTH_SECRET', 'MASTER_KEY']);
    expect(first.AUTH_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.MASTER_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path.join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);

    const second: Record<string, string | undefined> = {};
    expect(ensureDemoSecrets(dir, second)).toEqual([]);
    expect(second).toEqual(first);
  });

  it('never replaces a secret set in the shell or .env', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-secrets-'));
    const env: Record<string, string | undefined> = { AUTH_SECRET: 'mine-'.padEnd(40, 'x') };
    expect(ensureDemoSecrets(dir, env)).toEqual(['MASTER_KEY']);
    expect(env.AUTH_SECRET).toBe('mine-'.padEnd(40, 'x'));
  });
});

describe('demo build freshness', () => {
  it('rebuilds when the output is missing or older than any input, and not otherwise', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-fresh-'));
    mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
    const input = path.join(dir, 'src/deep/a.ts');
    const output = path.join(dir, 'out.js');
    writeFileSync(input, '');
    expect(isUpToDate(output, [path.join(dir, 'src')])).toBe(false);
    writeFileSync(output, '');
    utimesSync(input, new Date(1_000_000), new Date(1_000_000));
    expect(isUpToDate(output, [path.join(dir, 'src')])).toBe(true);
    utimesSync(input, new Date(), new Date(Date.now() + 60_000));
    expect(isUpToDate(output, [path.join(dir, 'src')])).toBe(false);
  });
});

describe('demo seed settings', () => {
  it('uses the documented defaults and the scripted provider when nothing is set', () => {
    expect(demoSettingsFromEnv({}, 8)).toEqual({
      adminEmail: 'admin@switchboard.local',
      adminPassword: 'switchboard',
      ownerEmail: 'owner@demo-hotel.local',
      apiKey: 'sb_demo_concierge_key_change_me',
      provider: undefined,
    });
  });

  it('points the Concierge at OpenAI gpt-4o-mini, else Gemini gemini-2.5-flash, when a key is set', () => {
    expect(demoSettingsFromEnv({ GEMINI_API_KEY: 'g' }, 8).provider).toEqual({ kind: 'gemini', model: 'gemini-2.5-flash' });
    expect(demoSettingsFromEnv({ OPENAI_API_KEY: 'o', GEMINI_API_KEY: 'g' }, 8).provider).toEqual({
      kind: 'openai',
      model: 'gpt-4o-mini',
    });
  });

  it.each([
    [{ DEMO_ADMIN_PASSWORD: 'short' }, 'DEMO_ADMIN_PASSWORD must have at least 8 characters'],
    [{ DEMO_ADMIN_EMAIL: 'not-an-email' }, 'DEMO_ADMIN_EMAIL is not an email address'],
    [{ DEMO_OWNER_EMAIL: 'admin@switchboard.local' }, 'DEMO_OWNER_EMAIL must differ from DEMO_ADMIN_EMAIL'],
    [{ DEMO_API_KEY: 'has a space in it!' }, 'DEMO_API_KEY must be at least 16 characters with no spaces'],
  ])('refuses %p naming the variable', (env, message) => {
    expect(() => demoSettingsFromEnv(env, 8)).toThrow(DemoSettingsError);
    expect(() => demoSettingsFromEnv(env, 8)).toThrow(message);
  });
});

describe('demo embedded Postgres', () => {
  jest.setTimeout(90_000);

  /** SELECT 1 through `url`'s server (its `postgres` database: the demo creates `switchboard` later). */
  async function selectOne(url: string): Promise<number> {
    const u = new URL(url);
    u.pathname = '/postgres';
    const client = new Client({ connectionString: u.toString() });
    await client.connect();
    try {
      return (await client.query<{ n: number }>('SELECT 1 AS n')).rows[0].n;
    } finally {
      await client.end();
    }
  }

  it('initialises a cluster under .data on first use, serves it on a free loopback port, stops, and reuses it', async () => {
    // Under /tmp, which any account may enter: as root the server runs as an unprivileged one.
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-embedded-'));
    chmodSync(dir, 0o755);
    const lines: string[] = [];
    const first = await startEmbeddedPostgres(dir, (l) => lines.push(l));
    try {
      expect(first.url).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${first.port}/switchboard$`));
      expect(await selectOne(first.url)).toBe(1);
      expect(lines.some((l) => l.startsWith(`initialised ${DATA_DIR}`))).toBe(true);
      expect(statSync(path.join(dir, PASSWORD_FILE)).mode & 0o777).toBe(0o600);
    } finally {
      await first.stop();
    }
    await expect(selectOne(first.url)).rejects.toThrow(/ECONNREFUSED/);

    lines.length = 0;
    const again = await startEmbeddedPostgres(dir, (l) => lines.push(l));
    try {
      expect(await selectOne(again.url)).toBe(1);
      expect(lines.some((l) => l.startsWith('initialised'))).toBe(false);
    } finally {
      await again.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('as root, with a checkout the server account cannot enter, keeps the data under /var/tmp and says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-closed-')); // mode 0700: no one else may enter
    const lines: string[] = [];
    const pg = await startEmbeddedPostgres(dir, (l) => lines.push(l));
    const moved = lines.find((l) => l.includes('cannot enter'));
    const shared = moved?.match(/(\/var\/tmp\/switchboard-demo-[0-9a-f]{12})\/postgres/)?.[1];
    try {
      expect(await selectOne(pg.url)).toBe(1);
      if (process.getuid?.() === 0) expect(shared).toBeDefined();
      else expect(moved).toBeUndefined(); // a normal user runs the server itself, data under .data
    } finally {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
      if (shared) rmSync(shared, { recursive: true, force: true });
    }
  });
});
