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

export type StepKind = 'prompt' | 'collect' | 'say' | 'do' | 'if' | 'wait';

/** Where a step goes: a step id of the flow, "end", or `{ flow }` to chain into another flow. */
export type StepTargetSpec = string | { flow: string };

/** A registered condition name, or every given key must hold. */
export type PredicateSpec = string | { equals?: Record<string, FieldValue | null>; known?: string[]; condition?: string | string[] };

export interface BranchSpec {
  if?: PredicateSpec | null;
  when?: string | null;
  then: StepTargetSpec;
}

export interface BusinessHoursSpec {
  start: string;
  end: string;
  days?: number[];
  timeZone?: string;
}

export interface StepSpec {
  id: string;
  kind: StepKind;
  prompt?: string | null;
  collect?: string[] | null;
  tools?: string[] | null;
  ask?: Record<string, string> | null;
  question?: string | null;
  maxAsks?: number | null;
  branches?: BranchSpec[] | null;
  say?: string | null;
  do?: string | null;
  with?: Record<string, unknown> | null;
  onFail?: StepTargetSpec | null;
  if?: PredicateSpec | null;
  else?: StepTargetSpec | null;
  wait?: string | { event: string; upTo?: string } | null;
  businessHours?: BusinessHoursSpec | null;
  then?: StepTargetSpec | null;
  [other: string]: unknown;
}

/** Exactly one of message, mention, event or silence. */
export interface TriggerSpec {
  message?: string[] | null;
  mention?: string[] | null;
  extract?: string[] | null;
  event?: string | null;
  after?: string | null;
  silence?: string | null;
  repeat?: 'once' | 'always' | { cooldown: string } | null;
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
  onEnd?: 'end' | 'stay' | 'reset' | null;
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
  /** The draft differs from the live version (or was never published). */
  unpublishedChanges?: boolean;
  /** The agent's own monthly budget in USD ("12.500000"), beside the tenant's; null = none. Applies on save. */
  monthlyBudget?: string | null;
  createdAt: string;
  updatedAt: string;
}
