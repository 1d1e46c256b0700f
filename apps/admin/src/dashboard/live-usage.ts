import { adminFetch } from '../api/api-fetch';
import type { UsageDay, UsageFilter } from './usage-data';

/** How often the dashboard re-reads its numbers: new turns show within this (and the render). */
export const LIVE_REFRESH_MS = 5_000;

/** GET /v1/admin/usage/latency: percentiles over the range and per day, with how they were computed. */
export interface RangeLatency {
  method: 'exact' | 'bucket-upper-bound';
  bucketBoundsMs?: number[];
  turns: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  byDay: { day: string; turns: number; p50: number; p95: number }[];
}

/** GET /v1/admin/usage/channels: one row per channel that had turns in the range. */
export interface ChannelFigures {
  channelId: string;
  channelName: string;
  kind: string;
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  failedTurns: number;
  p50: number | null;
  p95: number | null;
}

const filterQuery = (f: UsageFilter) => ({ filter: JSON.stringify({ from: f.from, to: f.to, ...(f.agentId && { agentId: f.agentId }) }) });

export const readRangeLatency = (f: UsageFilter) => adminFetch<RangeLatency>('/usage/latency', { query: filterQuery(f) });
export const readChannelFigures = (f: UsageFilter) => adminFetch<ChannelFigures[]>('/usage/channels', { query: filterQuery(f) });

/** What the latency numbers are, in words, for the cards' and chart's labels. */
export function latencyLabel(method: RangeLatency['method'] | undefined): string {
  return method === 'exact' ? 'exact, from every turn' : 'upper bound of a roll-up bucket';
}

const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The daily usage rows as CSV (one row per agent and day), the dashboard's export. */
export function usageCsv(rows: UsageDay[], agentName: (id: string) => string): string {
  const head = ['day', 'agentId', 'agent', 'turns', 'deferredTurns', 'failedTurns', 'llmCalls', 'inputTokens', 'outputTokens', 'avgLatencyMs'];
  const lines = rows.map((r) =>
    [r.day, r.agentId, agentName(r.agentId), r.turns, r.deferredTurns, r.failedTurns, r.llmCalls, r.inputTokens, r.outputTokens, r.latencyMs.avg].map(cell).join(','),
  );
  return [head.join(','), ...lines].join('\r\n') + '\r\n';
}

/** Hands `text` to the browser as a file download. */
export function downloadText(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
