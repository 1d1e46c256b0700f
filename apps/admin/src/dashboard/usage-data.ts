import type { DataProvider } from 'react-admin';
import { adminFetch } from '../api/api-fetch';

/** One agent's usage on one day, from GET /v1/admin/usage (the daily roll-up). */
export interface UsageDay {
  id: string;
  agentId: string;
  day: string;
  turns: number;
  deferredTurns: number;
  failedTurns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: { avg: number | null; p50: number | null; p95: number | null; p99: number | null };
  outcomes: Record<string, number>;
}

/** One console source's usage (playground turns, or live conversation-test runs). */
export interface ConsoleUsage {
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Customer usage, and `console`: the playground and live tests, a line of their own (they count toward the quota, never toward customers). */
export type UsageSummary = Omit<UsageDay, 'id' | 'agentId' | 'day'> & {
  days: number;
  console: { playground: ConsoleUsage; 'conversation-test': ConsoleUsage };
  /** Micros as decimal strings (docs/cost.md). */
  costMicros: string;
  costPerResolvedMicros: string | null;
};

export interface UsageFilter {
  from: string;
  to: string;
  agentId?: string;
}

const PAGE = 100;
const MAX_PAGES = 20;

/** Every roll-up row in the range (paged at the API's 100 rows), oldest day first. */
export async function readUsageDays(dataProvider: DataProvider, filter: UsageFilter): Promise<UsageDay[]> {
  const rows: UsageDay[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { data, total } = await dataProvider.getList<UsageDay>('usage', {
      filter: compact(filter),
      sort: { field: 'day', order: 'ASC' },
      pagination: { page, perPage: PAGE },
    });
    rows.push(...data);
    if (data.length < PAGE || (total !== undefined && rows.length >= total)) break;
  }
  return rows;
}

export function readUsageSummary(filter: UsageFilter): Promise<UsageSummary> {
  return adminFetch<UsageSummary>('/usage/summary', { query: { filter: JSON.stringify(compact(filter)) } });
}

const compact = (f: UsageFilter) => ({ from: f.from, to: f.to, ...(f.agentId && { agentId: f.agentId }) });

/** Every day from `from` to `to` (YYYY-MM-DD, UTC), so charts show days without turns as 0. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`) && out.length < 400; d.setUTCDate(d.getUTCDate() + 1)) {
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

export function isoDay(offsetDays = 0): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString().slice(0, 10);
}
