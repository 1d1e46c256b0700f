import {
  falai,
  fromSpec,
  type Agent,
  type AiProvider,
  type AnyAction,
  type AnyCondition,
  type AnyTool,
  type Clock,
  type Store,
} from '@falai/agent';
import type { AgentConfig } from './agent-config';

export class UnknownAgentToolError extends Error {
  readonly code = 'unknown-agent-tool';
  constructor(readonly toolIds: string[]) {
    super(
      `[UnknownAgentToolError] agent config: the allow-list names ${toolIds.map((t) => `"${t}"`).join(', ')}, ` +
        'which no registered tool provides. Remove the id from `tools` or register the tool.',
    );
    this.name = 'UnknownAgentToolError';
  }
}

export interface BuildEngineAgentDeps {
  /** Tools the host can provide; the config's allow-list picks among them. */
  tools: readonly AnyTool[];
  /** The host's registered actions and conditions; flows name the ones they use. */
  actions?: readonly AnyAction[];
  conditions?: readonly AnyCondition[];
  provider: AiProvider;
  /** Used when the config has no `name`. */
  name?: string;
  clock?: Clock;
  store?: Store;
}

/**
 * Turns a stored AgentConfig into an engine agent: fields, flows from their FlowSpec JSON, the
 * tools its allow-list names, the host's actions and conditions, and the provider the host built for it. Throws the engine's
 * FlowConfigurationError for a flow that does not hold together, and UnknownAgentToolError for an
 * allow-listed id no tool provides.
 */
export function buildEngineAgent<C = unknown>(config: AgentConfig, deps: BuildEngineAgentDeps): Agent<C> {
  const byId = new Map(deps.tools.map((t) => [t.id, t] as const));
  const allowed = [...new Set(config.tools)];
  const missing = allowed.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new UnknownAgentToolError(missing);

  const f = falai<C>().fields(config.fields);
  return f.agent({
    name: config.name ?? deps.name ?? 'agent',
    provider: deps.provider,
    tools: allowed.map((id) => byId.get(id)!),
    flows: config.flows.map((spec, index) => fromSpec(spec, { path: ['flows', index] })),
    ...(deps.actions?.length && { actions: [...deps.actions] }),
    ...(deps.conditions?.length && { conditions: [...deps.conditions] }),
    ...(config.idle !== undefined && { idle: config.idle }),
    ...(config.maxToolLoops !== undefined && { maxToolLoops: config.maxToolLoops }),
    ...(config.instructions !== undefined && { instructions: config.instructions }),
    ...(deps.clock && { clock: deps.clock }),
    ...(deps.store && { store: deps.store }),
  });
}
