// `npm run bench`: builds the API and the worker, runs every bench (or --only=...), prints a table
// per bench, stores the results in bench/results/latest.json and regenerates docs/benchmarks.md.
//
//   --only=ingest,e2e,engine,dashboard,memory,fairness   which benches (default: all)
//   --dashboard-rows=1000000[,10000000]         turn rows of the dashboard bench (default 1 million)
//   --smoke                                     tiny sizes, apps from source, nothing written (the smoke test)
//   --no-build / --no-write / --no-profile      skip the build, keep results and docs as they are, skip CPU profiles
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDashboardBench } from './dashboard/dashboard.bench';
import { runE2eBench } from './e2e/e2e.bench';
import { runFairnessBench } from './fairness/fairness.bench';
import { runEngineBench } from './engine-report/engine-report';
import { runIngestBench } from './ingest/ingest.bench';
import { runMemoryBench } from './memory/memory.bench';
import { findingsPath, renderMarkdown, type StoredResults } from './report/markdown';
import { textResult } from './report/text-table';
import { describeMachine, loadAverage } from './support/machine';
import { ROOT } from './support/processes';
import type { BenchContext, BenchResult } from './support/results';
import { ADMIN_DATABASE_URL } from '../test/support/test-database';

export const BENCHES = ['ingest', 'e2e', 'engine', 'dashboard', 'memory', 'fairness'] as const;
export type BenchName = (typeof BENCHES)[number];

export interface RunOptions {
  only: BenchName[];
  dashboardRows: number[];
  smoke: boolean;
  build: boolean;
  write: boolean;
  profile: boolean;
}

export class BenchArgumentError extends Error {
  readonly code = 'invalid-bench-argument';
}

export function parseArgs(argv: string[]): RunOptions {
  const value = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const flag = (name: string): boolean => argv.includes(`--${name}`);
  const known = new Set(['only', 'dashboard-rows', 'smoke', 'no-build', 'no-write', 'no-profile']);
  for (const a of argv) {
    const name = a.replace(/^--/, '').split('=')[0];
    if (!a.startsWith('--') || !known.has(name)) throw new BenchArgumentError(`unknown argument "${a}" (see the top of bench/run.ts)`);
  }
  const only = (value('only')?.split(',').map((s) => s.trim()).filter(Boolean) ?? [...BENCHES]) as BenchName[];
  const unknown = only.filter((b) => !(BENCHES as readonly string[]).includes(b));
  if (unknown.length) throw new BenchArgumentError(`unknown bench ${unknown.join(', ')}; known: ${BENCHES.join(', ')}`);
  const smoke = flag('smoke');
  const rows = (value('dashboard-rows') ?? (smoke ? '2000' : '1000000')).split(',').map((s) => Number(s.replace(/_/g, '')));
  if (rows.some((n) => !Number.isInteger(n) || n < 1)) throw new BenchArgumentError('--dashboard-rows takes positive integers, comma separated');
  return { only, dashboardRows: rows, smoke, build: !smoke && !flag('no-build'), write: !smoke && !flag('no-write'), profile: !smoke && !flag('no-profile') };
}

const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'latest.json');
const DOC_FILE = path.join(ROOT, 'docs', 'benchmarks.md');

/** Runs the chosen benches; returns their results (also printed as they finish). */
export async function runBenches(opts: RunOptions, log: (line: string) => void = (l) => console.log(l)): Promise<BenchResult[]> {
  const command = opts.smoke ? 'npm run bench:smoke' : `npm run bench${commandSuffix(opts)}`;
  log(`bench: ${opts.only.join(', ')} (${opts.smoke ? 'smoke' : 'full'}); load average ${loadAverage().join(' / ')}`);
  if (opts.build) {
    for (const app of ['api', 'worker']) {
      // The same Nest build as `npx nest build <app>`, into .tmp/bench-dist (see bench/build/).
      log(`building ${app} (npx nest build ${app} --path bench/build/tsconfig.${app}.json)`);
      execFileSync('npx', ['nest', 'build', app, '--path', `bench/build/tsconfig.${app}.json`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
  }
  const ctx: BenchContext = { size: opts.smoke ? 'smoke' : 'full', built: !opts.smoke, command, log };
  const results: BenchResult[] = [];
  const done = (r: BenchResult): void => {
    results.push(r);
    log('\n' + textResult(r) + '\n');
  };
  for (const bench of opts.only) {
    if (bench === 'ingest') done(await runIngestBench({ ...ctx, profile: opts.profile }));
    if (bench === 'e2e') done(await runE2eBench({ ...ctx, profile: opts.profile }));
    if (bench === 'engine') done(await runEngineBench(ctx));
    if (bench === 'dashboard') for (const rows of opts.dashboardRows) done(await runDashboardBench({ ...ctx, rows }));
    if (bench === 'memory') done(await runMemoryBench(ctx));
    if (bench === 'fairness') done(await runFairnessBench(ctx));
  }
  if (opts.write) await store(results);
  return results;
}

function commandSuffix(opts: RunOptions): string {
  const parts: string[] = [];
  if (opts.only.length !== BENCHES.length) parts.push(`--only=${opts.only.join(',')}`);
  if (opts.only.includes('dashboard') && opts.dashboardRows.join(',') !== '1000000') parts.push(`--dashboard-rows=${opts.dashboardRows.join(',')}`);
  return parts.length ? ` -- ${parts.join(' ')}` : '';
}

/** Merges the new results into latest.json (a bench not run keeps its last result) and rewrites the doc. */
async function store(results: BenchResult[]): Promise<void> {
  const previous: StoredResults | undefined = existsSync(RESULTS_FILE) ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as StoredResults) : undefined;
  const machine = await describeMachine(ADMIN_DATABASE_URL, process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const stored: StoredResults = { machine, results: { ...(previous?.results ?? {}) } };
  for (const r of results) stored.results[r.id] = r;
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(stored, null, 2) + '\n');
  writeFileSync(DOC_FILE, renderMarkdown(stored, findingsPath(ROOT)));
  console.log(`wrote ${path.relative(ROOT, RESULTS_FILE)} and ${path.relative(ROOT, DOC_FILE)}`);
}

if (require.main === module) {
  let opts: RunOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  runBenches(opts).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
