import type { Turn } from '@switchboard/db';

/** A turn's usage and outcome as the console reads it; the engine trace stays server-side. */
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
  createdAt: true,
} as const satisfies Partial<Record<keyof Turn, true>>;
