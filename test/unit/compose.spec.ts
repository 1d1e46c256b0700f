import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { randomBytes } from 'node:crypto';
import { envSchema, loadEnv } from '@switchboard/config';

// No Docker engine runs where the tests run, so docker-compose.yml and the Dockerfile are checked
// by reading them: the services and their wiring, and that what they reference exists.

const root = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  container_name?: string;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

// Compose's `<<` merge keys are YAML 1.1; `merge: true` resolves them like Compose does.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appServices = ['api', 'worker'] as const;
const dockerfile = read('Dockerfile');
const nestCli = JSON.parse(read('nest-cli.json')) as { projects: Record<string, { entryFile: string }> };

/** Where `npx nest build <app>` writes the app's entry, from tsconfig.app.json's outDir and nest-cli.json. */
function builtEntry(app: 'api' | 'worker'): string {
  const tsconfig = JSON.parse(read(`apps/${app}/tsconfig.app.json`)) as { compilerOptions: { outDir: string } };
  const outDir = path.relative(root, path.join(root, `apps/${app}`, tsconfig.compilerOptions.outDir));
  return `${outDir}/${nestCli.projects[app].entryFile}.js`;
}

/** The instructions of the Dockerfile with continuation lines joined. */
function dockerInstructions(): string[] {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

describe('docker-compose.yml', () => {
  it('runs postgres 16, redis 7, a one-shot migrate, the api and the worker', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'worker']);
    expect(services.postgres.image).toBe('postgres:16');
    expect(services.redis.image).toBe('redis:7');
    expect(services.migrate.restart).toBe('no');
  });

  it('checks postgres with pg_isready and redis with redis-cli ping', () => {
    expect(services.postgres.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(services.redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('migrates and seeds once postgres is healthy', () => {
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    const command = services.migrate.command?.join(' ') ?? '';
    expect(command).toMatch(/node scripts\/migrate\.js up && node -r @swc-node\/register prisma\/seed\.ts/);
    expect(existsSync(path.join(root, 'scripts/migrate.js'))).toBe(true);
    expect(existsSync(path.join(root, 'prisma/seed.ts'))).toBe(true);
  });

  it.each(appServices)('starts %s only after postgres and redis are healthy and migrate has completed', (name) => {
    expect(services[name].depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it('gives migrate, api and worker the same database, redis and queue prefix, pointing at the compose services', () => {
    const envOf = (name: string) => services[name].environment ?? {};
    for (const name of ['migrate', ...appServices]) {
      expect(envOf(name).DATABASE_URL).toBe('postgresql://postgres@postgres:5432/switchboard');
      expect(envOf(name).REDIS_URL).toBe('redis://redis:6379');
    }
    expect(envOf('api').QUEUE_PREFIX).toBeTruthy();
    expect(envOf('worker').QUEUE_PREFIX).toBe(envOf('api').QUEUE_PREFIX);
  });

  it.each(appServices)('sets for %s every variable the apps require that has no default', (name) => {
    const required = Object.entries(envSchema.shape)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([variable]) => variable);
    const env = services[name].environment ?? {};
    expect(required.filter((variable) => !env[variable])).toEqual([]);
    // And every value set is one the schema accepts (compose interpolation left aside).
    const literal = Object.fromEntries(Object.entries(env).filter(([, v]) => !String(v).includes('${')));
    expect(envSchema.partial().safeParse(literal).error?.issues ?? []).toEqual([]);
  });

  it.each(['migrate', ...appServices])('gives %s an environment the apps accept in production, once compose fills it in', (name) => {
    // `${VAR:-default}` takes its default; `${VAR:?message}` (required) gets a fresh random secret.
    const interpolate = (value: string) =>
      String(value).replace(/\$\{(\w+)(:?[-?])([^}]*)\}/g, (_m, _name: string, op: string, arg: string) =>
        op.endsWith('-') ? arg : randomBytes(32).toString('hex'),
      );
    const env = Object.fromEntries(Object.entries(services[name].environment ?? {}).map(([k, v]) => [k, interpolate(v)]));
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadEnv(env)).not.toThrow();
  });

  it('makes the api refuse to start without AUTH_SECRET, which production requires for console logins', () => {
    expect(services.api.environment?.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?.+\}$/);
  });

  it('publishes the api on port 3000 and calls it healthy when /health/ready answers', () => {
    expect(services.api.ports).toEqual(['3000:3000']);
    expect(services.api.environment?.PORT).toBe('3000');
    expect(services.api.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:3000/health/ready');
  });

  it('keeps the metrics ports on the compose network: listening for a Prometheus container, never published, behind METRICS_TOKEN when set', () => {
    expect(services.api.environment?.API_METRICS_HOST).toBe('0.0.0.0');
    expect(services.worker.environment?.WORKER_METRICS_HOST).toBe('0.0.0.0');
    const published = Object.values(services).flatMap((svc) => svc.ports ?? []);
    expect(published.filter((p) => /\b946[45]\b/.test(p))).toEqual([]);
    for (const app of appServices) expect(services[app].environment?.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
  });

  it('lets the worker scale with --scale worker=N: no container_name, no host ports', () => {
    expect(services.worker.container_name).toBeUndefined();
    expect(services.worker.ports).toBeUndefined();
    expect(Object.values(services).some((s) => s.container_name)).toBe(false);
  });

  it('runs migrate, api and worker from the one image the Dockerfile builds, each with its own command', () => {
    for (const name of ['migrate', ...appServices]) {
      expect(services[name].build).toBe('.');
      expect(services[name].image).toBe('switchboard:local');
    }
    expect(services.api.command).toEqual(['node', builtEntry('api')]);
    // The worker's young generation is capped (docs/running.md, worker memory).
    expect(services.worker.command).toEqual(['node', '--max-semi-space-size=4', builtEntry('worker')]);
  });
});

describe('Dockerfile', () => {
  const instructions = dockerInstructions();

  it('builds on node:20-bookworm-slim in several stages, running the api by default', () => {
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    expect(instructions.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(3);
    expect(instructions.at(-1)).toBe(`CMD ["node", "${builtEntry('api')}"]`);
  });

  it('copies only paths that exist in the build context', () => {
    const sources = instructions
      .filter((l) => l.startsWith('COPY ') && !l.includes('--from='))
      .flatMap((l) => l.replace(/^COPY\s+/, '').split(/\s+/).slice(0, -1))
      .filter((s) => s !== '.');
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => !existsSync(path.join(root, s)))).toEqual([]);
  });

  it('copies every workspace manifest before npm ci, so the install layer matches the lockfile', () => {
    const { workspaces } = JSON.parse(read('package.json')) as { workspaces: string[] };
    const installAt = instructions.findIndex((l) => l.startsWith('RUN npm ci'));
    const copiedBefore = instructions.slice(0, installAt).join('\n');
    expect(installAt).toBeGreaterThan(0);
    expect(workspaces.filter((w) => !copiedBefore.includes(`COPY ${w}/package.json ${w}/`))).toEqual([]);
  });

  it('runs npm scripts that exist and builds both apps, the console and the widget', () => {
    const rootScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const adminScripts = (JSON.parse(read('apps/admin/package.json')) as { scripts?: Record<string, string> }).scripts ?? {};
    expect(rootScripts['prisma:generate']).toBeDefined();
    expect(adminScripts.build).toBeDefined();
    expect(dockerfile).toMatch(/npx nest build api/);
    expect(dockerfile).toMatch(/npx nest build worker/);
    expect(dockerfile).toMatch(/npm run build -w apps\/admin/);
    expect(dockerfile).toMatch(/npm run build -w apps\/widget/);
  });

  it('keeps node_modules, build output and .env out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.env', '.git']));
  });
});
