import type { BenchResult, Table } from '../support/results';

// Plain-text tables for the terminal: one per bench table, columns padded to their widest cell.

export function textTable(t: Table): string {
  const cells = [t.columns, ...t.rows.map((r) => r.map(String))];
  const widths = t.columns.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]): string => r.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [t.title, line(t.columns), rule, ...t.rows.map(line)].join('\n');
}

export function textResult(r: BenchResult): string {
  const targets = r.targets.map((t) => `  ${t.met === null ? '?' : t.met ? 'MET ' : 'MISS'}  ${t.target}: ${t.actual}`);
  return [
    `== ${r.title} ==`,
    ...r.tables.map((t) => textTable(t) + '\n'),
    ...(targets.length ? ['targets:', ...targets] : []),
    ...r.notes.map((n) => `note: ${n}`),
  ].join('\n');
}
