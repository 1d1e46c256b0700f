import type { Turn } from '@switchboard/db';

/** A turn's usage and outcome as the console lists it (lean: the trace is on the single-turn read). */
export interface TurnDto {
  id: string;
  tenantId: string;
  sessionId: string;
  agentId: string;
  agentVersion: number | null;
  provider: string;
  model: string;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  outcomeCodes: string[];
  queueWaitMs: number;
  modelMs: number;
  toolsMs: number;
  commitMs: number;
  totalMs: number;
  /** The turn's cost in micro-units (docs/cost.md), a decimal string: JSON has no bigint. */
  costMicros: string;
  /** Calls of a model with no price (counted at 0). */
  unpricedCalls: number;
  createdAt: Date;
}

export const turnSelect = {
  id: true,
  tenantId: true,
  sessionId: true,
  agentId: true,
  agentVersion: true,
  provider: true,
  model: true,
  llmCalls: true,
  inputTokens: true,
  outputTokens: true,
  cachedInputTokens: true,
  outcomeCodes: true,
  queueWaitMs: true,
  modelMs: true,
  toolsMs: true,
  commitMs: true,
  totalMs: true,
  costMicros: true,
  unpricedCalls: true,
  createdAt: true,
} as const satisfies Partial<Record<keyof Turn, true>>;

/**
 * One turn with what happened inside it: the engine's trace (each model call with its time and
 * tokens, each tool call with its arguments, gate and the result text the model read) and the
 * step outcomes. Tool arguments and results are the tenant's own data; request headers of HTTP
 * tools (secret ones included) are never part of a trace.
 */
export interface TurnDetailDto extends TurnDto {
  trace: unknown[];
  outcomes: unknown[];
}

export const turnDetailSelect = { ...turnSelect, trace: true, outcomes: true } as const satisfies Partial<Record<keyof Turn, true>>;

type TurnRow = Omit<TurnDto, 'costMicros'> & { costMicros: bigint };

export function toTurnDto(row: TurnRow): TurnDto {
  return { ...row, costMicros: row.costMicros.toString() };
}

export function toTurnDetail(row: TurnRow & { trace: unknown; outcomes: unknown }): TurnDetailDto {
  return { ...toTurnDto(row), trace: Array.isArray(row.trace) ? row.trace : [], outcomes: Array.isArray(row.outcomes) ? row.outcomes : [] };
}
