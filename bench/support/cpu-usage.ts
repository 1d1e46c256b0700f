import { readdirSync, readFileSync } from 'node:fs';

// CPU seconds used by processes, from /proc (Linux), to tell which process a bench saturates:
// the worker's event loop, the API's, Postgres or Redis.

const TICKS_PER_SECOND = 100;

interface ProcStat {
  comm: string;
  cpuSeconds: number;
}

function readStat(pid: number | string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces; the fields after it are space separated.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after `state`.
    return { comm, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU seconds per group: each given pid by its label, plus every postgres and redis-server process. */
export function cpuSnapshot(pids: Record<string, number[]>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, list] of Object.entries(pids)) out[label] = list.reduce((s, pid) => s + (readStat(pid)?.cpuSeconds ?? 0), 0);
  out.postgres = 0;
  out.redis = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (!stat) continue;
    if (stat.comm === 'postgres') out.postgres += stat.cpuSeconds;
    else if (stat.comm.startsWith('redis-server')) out.redis += stat.cpuSeconds;
  }
  out.machine = machineBusySeconds();
  return out;
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const [, user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  void idle;
  void iowait;
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/**
 * Share of one core each group used between two snapshots ("100%" = one core busy the whole time).
 * Floored at 0: a process that exits between snapshots takes its ticks with it.
 */
export function cpuPercent(before: Record<string, number>, after: Record<string, number>, seconds: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(after)) out[key] = Math.max(0, Math.round(((after[key] - (before[key] ?? 0)) / seconds) * 100));
  return out;
}

/** CPU milliseconds each group spent per unit of work between two snapshots (machine excluded). */
export function cpuMsPer(before: Record<string, number>, after: Record<string, number>, units: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(after)) {
    if (key === 'machine') continue;
    out[key] = Math.round(((Math.max(0, after[key] - (before[key] ?? 0)) * 1000) / Math.max(1, units)) * 100) / 100;
  }
  return out;
}
