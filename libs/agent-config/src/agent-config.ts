// The platform's agent configuration: what Agent.config (draft) and AgentVersion.config
// (published) hold as JSON. The worker builds an engine agent from it; the API validates and
// publishes it; the console edits it. Flows are the engine's FlowSpec JSON.

export type ProviderKind = 'scripted' | 'openai' | 'gemini' | 'openai-compatible';

export interface AgentProviderConfig {
  kind: ProviderKind;
  model: string;
  /** For openai-compatible servers (vLLM, Ollama, LM Studio, gateways). */
  baseURL?: string;
  /** A stored provider credential of the tenant; absent for `scripted`. */
  credentialId?: string;
  /** JSON rules of the ScriptedProvider, for `scripted` (offline demo and tests). */
  scripted?: unknown;
}

export interface FieldConfig {
  type: 'string' | 'number' | 'integer' | 'boolean';
  enum?: (string | number | boolean)[];
  description?: string;
  label?: string;
  ask?: string;
  extract?: 'anywhere' | 'asked';
}

export type IdleConfig = { prompt?: string; tools?: string[]; instructions?: string } | 'silent';

export interface DoubleTextingConfig {
  policy: 'sequential' | 'merge';
  /** How long `merge` waits for a burst to end, in ms. */
  mergeWindowMs?: number;
}

export interface AgentConfig {
  /** The engine agent's name; the worker falls back to Agent.name. */
  name?: string;
  instructions?: string;
  provider: AgentProviderConfig;
  fields: Record<string, FieldConfig>;
  /** The engine's FlowSpec objects (see @falai/agent `FlowSpec`). */
  flows: unknown[];
  /** Allow-list of tool ids (registered code tools and the tenant's HTTP tools). */
  tools: string[];
  idle?: IdleConfig;
  maxToolLoops?: number;
  /**
   * Sent to the customer when a turn ends with nothing said because of a failure (a provider
   * refusing for good, the agent not loadable, a run ended failed). Filled with a default in the
   * agent's language at creation, and at load for agents stored without one (fallback-message.ts).
   */
  fallbackMessage?: string;
  /** Optional: sent once when a talk step is first deferred by a provider outage ("one moment…"). */
  holdingMessage?: string;
  doubleTexting?: DoubleTextingConfig;
}
