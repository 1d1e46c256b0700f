import { API_URL } from '../api/http-client';
import { adminFetch } from '../api/api-fetch';
import { scopedHttpClient } from '../api/tenant-pick';
import type { UsageFilter } from './usage-data';

// Cost reads for the dashboard (docs/cost.md): amounts arrive as micros in decimal strings.

export type CostDimension = 'agent' | 'model' | 'channel' | 'flow' | 'step' | 'day';

export interface CostRow {
  key: Record<string, string>;
  label: string;
  llmCalls: number;
  costMicros: string;
  unpricedCalls: number;
  share: number;
}

export interface CostBreakdown {
  by: CostDimension;
  totalMicros: string;
  rows: CostRow[];
}

/** An agent with its own monthly budget: this month's spend against it (micros). */
export interface AgentBudget {
  agentId: string;
  name: string;
  used: number;
  quota: number;
  warning: boolean;
  exceeded: boolean;
}

export interface QuotaState {
  cost: { used: number; quota: number | null };
  exceeded: 'llmCalls' | 'tokens' | 'cost' | null;
  budgetWarning: boolean;
  resetsAt: string;
  agents?: AgentBudget[];
}

const range = (f: UsageFilter) => ({ from: f.from, to: f.to, agentId: f.agentId || undefined });

export function readCost(by: CostDimension, filter: UsageFilter): Promise<CostBreakdown> {
  return adminFetch<CostBreakdown>('/usage-cost', { query: { by, ...range(filter) } });
}

/** This month's usage against the quotas of `tenantId` (a platform admin's), or of the user's tenant or the picked one. */
export function readQuota(tenantId?: string): Promise<QuotaState> {
  return adminFetch<QuotaState>('/usage/quota', { query: { tenantId } });
}

/** The roll-up as CSV, fetched with the console's credentials and handed to the browser as a download. */
export async function downloadCostCsv(filter: UsageFilter): Promise<void> {
  const qs = new URLSearchParams(Object.entries(range(filter)).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  const { body } = await scopedHttpClient(`${API_URL}/usage-cost/export?${qs}`, { headers: new Headers({ Accept: 'text/csv' }) });
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `switchboard-cost-${filter.from}-${filter.to}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}
