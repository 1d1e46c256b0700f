// The shapes the console reads and writes: the API's AgentConfig (libs/agent-config) and the
// engine's FlowSpec (libs/agent types/spec.ts). Copied, as the console builds without the libs.

export type ProviderKind = 'scripted' | 'openai' | 'gemini' | 'openai-compatible';
export type FieldType = 'string' | 'number' | 'integer' | 'boolean';
export type FieldValue = string | number | boolean;

export interface FieldConfig {
  type: FieldType;
  enum?: FieldValue[];
  description?: string;
  label?: string;
  ask?: string;
  extract?: 'anywhere' | 'asked';
}

export type StepKind = 'prompt' | 'collect' | 'say';

export interface StepSpec {
  id: string;
  kind: StepKind;
  prompt?: string | null;
  collect?: string[] | null;
  tools?: string[] | null;
  ask?: Record<string, string> | null;
  question?: string | null;
  maxAsks?: number | null;
  say?: string | null;
  then?: string | null;
  [other: string]: unknown;
}

export interface TriggerSpec {
  message: string[];
  repeat?: 'once' | 'always' | null;
  [other: string]: unknown;
}

export interface FlowSpec {
  id: string;
  name: string;
  description?: string | null;
  on?: TriggerSpec[] | null;
  steps: StepSpec[];
  tools?: string[] | null;
  instructions?: string | null;
  onEnd?: 'end' | null;
  [other: string]: unknown;
}

export type IdleConfig = { prompt?: string; tools?: string[]; instructions?: string } | 'silent';

export interface AgentConfig {
  name?: string;
  instructions?: string;
  provider: { kind: ProviderKind; model: string; baseURL?: string; credentialId?: string; scripted?: unknown };
  fields: Record<string, FieldConfig>;
  flows: FlowSpec[];
  tools: string[];
  idle?: IdleConfig;
  maxToolLoops?: number;
  fallbackMessage?: string;
  doubleTexting?: { policy: 'sequential' | 'merge'; mergeWindowMs?: number };
}

export interface AgentRecord {
  id: string;
  tenantId: string;
  name: string;
  config: AgentConfig;
  publishedVersion: number | null;
  createdAt: string;
  updatedAt: string;
}
