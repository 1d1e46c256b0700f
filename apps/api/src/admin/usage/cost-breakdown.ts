import { amountOf } from '@switchboard/db';

// The cost roll-up (UsageCostDaily) grouped by one dimension, as the dashboard and the CSV read it.

/** What cost can be grouped by, and the roll-up columns each groups on. */
export const COST_DIMENSIONS = {
  agent: ['agentId'],
  model: ['provider', 'model'],
  channel: ['channelId'],
  flow: ['part', 'flowId'],
  step: ['part', 'flowId', 'stepId'],
  day: ['day'],
} as const;
export type CostDimension = keyof typeof COST_DIMENSIONS;

export interface CostSums {
  llmCalls: bigint | null;
  inputTokens: bigint | null;
  cachedInputTokens: bigint | null;
  outputTokens: bigint | null;
  costMicros: bigint | null;
  unpricedCalls: bigint | null;
}

export interface CostRowDto {
  /** The group's key columns (agentId, provider and model, part/flowId/stepId, …) and a label. */
  key: Record<string, string>;
  label: string;
  llmCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Micro-units, a decimal string (bigint on the server). */
  costMicros: string;
  unpricedCalls: number;
  /** This group's share of the total cost, 0..1 (0 when the total is 0): for charts only. */
  share: number;
}

/** A group's name for people: `flow › step`, the agent's or channel's name, `provider/model`, the day. */
export function costLabel(by: CostDimension, key: Record<string, string>, names: ReadonlyMap<string, string>): string {
  switch (by) {
    case 'agent':
      return names.get(key.agentId) ?? key.agentId;
    case 'channel':
      return names.get(key.channelId) ?? key.channelId;
    case 'model':
      return `${key.provider}/${key.model}`;
    case 'day':
      return key.day;
    case 'flow':
      return key.part === 'step' ? key.flowId : `(${key.part})`;
    case 'step':
      return key.part === 'step' ? `${key.flowId} › ${key.stepId}` : `(${key.part})`;
  }
}

export function costRows(by: CostDimension, groups: (Record<string, unknown> & { _sum: CostSums })[], names: ReadonlyMap<string, string>): { rows: CostRowDto[]; totalMicros: string } {
  const total = groups.reduce((t, g) => t + (g._sum.costMicros ?? 0n), 0n);
  const rows = groups.map((g) => {
    const key = Object.fromEntries(COST_DIMENSIONS[by].map((c) => [c, c === 'day' ? (g[c] as Date).toISOString().slice(0, 10) : String(g[c])]));
    const cost = g._sum.costMicros ?? 0n;
    return {
      key,
      label: costLabel(by, key, names),
      llmCalls: Number(g._sum.llmCalls ?? 0n),
      inputTokens: Number(g._sum.inputTokens ?? 0n),
      cachedInputTokens: Number(g._sum.cachedInputTokens ?? 0n),
      outputTokens: Number(g._sum.outputTokens ?? 0n),
      costMicros: cost.toString(),
      unpricedCalls: Number(g._sum.unpricedCalls ?? 0n),
      share: total === 0n ? 0 : Number((cost * 1_000_000n) / total) / 1_000_000,
    };
  });
  rows.sort((a, b) => (BigInt(b.costMicros) > BigInt(a.costMicros) ? 1 : BigInt(b.costMicros) < BigInt(a.costMicros) ? -1 : a.label.localeCompare(b.label)));
  return { rows, totalMicros: total.toString() };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
export function csvField(value: string | number | bigint): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = ['day', 'agentId', 'agent', 'channelId', 'channel', 'provider', 'model', 'part', 'flowId', 'stepId', 'llmCalls', 'inputTokens', 'cachedInputTokens', 'outputTokens', 'unpricedCalls', 'costMicros', 'cost'];

export interface CsvRow {
  day: Date;
  agentId: string;
  channelId: string;
  provider: string;
  model: string;
  part: string;
  flowId: string;
  stepId: string;
  _sum: CostSums;
}

export function csvLine(r: CsvRow, names: ReadonlyMap<string, string>): string {
  const cost = r._sum.costMicros ?? 0n;
  return [
    r.day.toISOString().slice(0, 10),
    r.agentId,
    names.get(r.agentId) ?? '',
    r.channelId,
    names.get(r.channelId) ?? '',
    r.provider,
    r.model,
    r.part,
    r.flowId,
    r.stepId,
    r._sum.llmCalls ?? 0n,
    r._sum.inputTokens ?? 0n,
    r._sum.cachedInputTokens ?? 0n,
    r._sum.outputTokens ?? 0n,
    r._sum.unpricedCalls ?? 0n,
    cost,
    amountOf(cost),
  ]
    .map(csvField)
    .join(',');
}
