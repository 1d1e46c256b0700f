// What every bench returns: tables to print and to write into docs/benchmarks.md, the targets it
// checks, and notes (what limits a missed target, caveats of the run).

export interface Table {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface TargetCheck {
  target: string;
  actual: string;
  /** null when the run could not decide (for example a smoke-sized run or a skipped case). */
  met: boolean | null;
}

export interface BenchResult {
  /** Stable key in bench/results/latest.json; a bench may report several (dashboard per row count). */
  id: string;
  title: string;
  /** What the bench measures and how, rendered as the section's first paragraph(s). */
  description: string[];
  tables: Table[];
  targets: TargetCheck[];
  notes: string[];
  /** When this result was measured and how loaded the machine was then (results can come from different runs). */
  measuredAt: string;
  loadAverage: number[];
  command: string;
}

/** How big a run is: `full` for the published figures, `smoke` for the test that keeps the benches working. */
export type BenchSize = 'full' | 'smoke';

export interface BenchContext {
  size: BenchSize;
  /** Run the built JS (dist/) of the API and worker; false runs them from source with swc (smoke test). */
  built: boolean;
  /** The command line the run was started with, for the report. */
  command: string;
  log: (line: string) => void;
}
