import type { Turn } from '@switchboard/db';
import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';

/** A turn's usage and outcome as the console lists it (lean: the trace is on the single-turn read). */
export const turnRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  sessionId: z.uuid(),
  agentId: z.uuid(),
  agentVersion: z.number().int().nullable(),
  provider: z.string(),
  model: z.string(),
  llmCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  outcomeCodes: z.array(z.string()),
  queueWaitMs: z.number().int(),
  modelMs: z.number().int(),
  toolsMs: z.number().int(),
  commitMs: z.number().int(),
  totalMs: z.number().int(),
  /** The turn's cost in micro-units (docs/cost.md), a decimal string: JSON has no bigint. */
  costMicros: z.string().regex(/^-?\d+$/),
  /** Calls of a model with no price (counted at 0). */
  unpricedCalls: z.number().int(),
  createdAt: z.date(),
});
export type TurnDto = z.infer<typeof turnRecord>;

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
export const turnDetail = turnRecord.extend({
  trace: z.array(storedJson).describe("The engine's trace entries, as the worker stored them."),
  outcomes: z.array(storedJson).describe('The step outcomes, as the worker stored them.'),
});
export type TurnDetailDto = z.infer<typeof turnDetail>;

export const turnDetailSelect = { ...turnSelect, trace: true, outcomes: true } as const satisfies Partial<Record<keyof Turn, true>>;

type TurnRow = Omit<TurnDto, 'costMicros'> & { costMicros: bigint };

export function toTurnDto(row: TurnRow): TurnDto {
  return { ...row, costMicros: row.costMicros.toString() };
}

export function toTurnDetail(row: TurnRow & { trace: unknown; outcomes: unknown }): TurnDetailDto {
  return { ...toTurnDto(row), trace: Array.isArray(row.trace) ? row.trace : [], outcomes: Array.isArray(row.outcomes) ? row.outcomes : [] };
}
