import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from '../../test/support/test-database';

// CPU seconds used by processes, from /proc (Linux), to tell which process a bench saturates —
// the worker's event loop, the API's, Postgres or Redis — and what one request or message costs
// in CPU, a figure that does not depend on how busy the shared machine is.

const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  /** Per group: CPU seconds per pid. */
  groups: Record<string, Map<number, number>>;
  machine: number;
}

function cpuSecondsOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces; utime and stime are the 12th and 13th fields after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Pids of the Postgres backends serving one database (the bench's own, not other people's). */
export async function postgresBackendPids(databaseName: string): Promise<number[]> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName]);
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

/**
 * CPU seconds of each group of pids, plus `redis` (every redis-server process: Redis is shared)
 * and `postgres`: the backends of one database (by name), every postgres process ('all'), or
 * none (a baseline that does not use Postgres).
 */
export async function cpuSnapshot(pids: Record<string, number[]>, postgres: { database: string } | 'all' | 'none'): Promise<CpuSnapshot> {
  const all: Record<string, number[]> = { ...pids, postgres: typeof postgres === 'object' ? await postgresBackendPids(postgres.database) : [], redis: [] };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = commOf(Number(entry));
    if (comm.startsWith('redis-server')) all.redis.push(Number(entry));
    else if (postgres === 'all' && comm === 'postgres') all.postgres.push(Number(entry));
  }
  const groups: Record<string, Map<number, number>> = {};
  for (const [label, list] of Object.entries(all)) {
    groups[label] = new Map(list.flatMap((pid) => {
      const s = cpuSecondsOf(pid);
      return s === undefined ? [] : [[pid, s] as [number, number]];
    }));
  }
  return { groups, machine: machineBusySeconds() };
}

/**
 * CPU seconds per group between two snapshots: a pid seen only in the later one was born in
 * between and counts whole; one gone by then took its ticks with it (not counted).
 */
export function cpuDeltaSeconds(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, pids] of Object.entries(after.groups)) {
    let sum = 0;
    for (const [pid, seconds] of pids) sum += Math.max(0, seconds - (before.groups[label]?.get(pid) ?? 0));
    out[label] = sum;
  }
  out.machine = Math.max(0, after.machine - before.machine);
  return out;
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** Share of one core each group used between two snapshots ("100%" = one core busy the whole time). */
export function cpuPercent(before: CpuSnapshot, after: CpuSnapshot, seconds: number): Record<string, number> {
  const d = cpuDeltaSeconds(before, after);
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Math.round((v / seconds) * 100)]));
}

/** CPU milliseconds each group spent per unit of work between two snapshots (machine excluded). */
export function cpuMsPer(before: CpuSnapshot, after: CpuSnapshot, units: number): Record<string, number> {
  const d = cpuDeltaSeconds(before, after);
  delete d.machine;
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Math.round(((v * 1000) / Math.max(1, units)) * 100) / 100]));
}
