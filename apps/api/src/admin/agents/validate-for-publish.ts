import {
  FlowConfigurationError,
  fromSpec,
  validateFields,
  validateFlows,
  validateIdle,
  type FieldsDef,
  type FlowRegistries,
  type FlowWarning,
  type StructuredSchema,
} from '@falai/agent';
import { agentConfigSchema, type AgentConfig } from '@switchboard/agent-config';

/** The worker's registered actions (name → params schema) and condition names (RegisteredAction rows). */
export interface KnownActions {
  actions: Record<string, StructuredSchema | undefined>;
  conditions: string[];
}

export interface PublishCheck {
  config: AgentConfig;
  warnings: FlowWarning[];
}

/**
 * Everything the engine would refuse when the worker builds this agent, checked before it is
 * published: the config's JSON shape, every allow-listed tool id among the tools that exist,
 * fields, idle tools and every flow (from its FlowSpec, with the agent's fields and allow-list
 * and the worker's registered actions and conditions as registries). Throws the engine's FlowConfigurationError, whose `path` points into the config.
 */
export function validateForPublish(
  draft: unknown,
  knownToolIds: ReadonlySet<string>,
  known: KnownActions = { actions: {}, conditions: [] },
): PublishCheck {
  const parsed = agentConfigSchema.safeParse(draft);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FlowConfigurationError({
      code: 'invalid-type',
      where: 'agent config',
      what: `${issue.path.length ? issue.path.join('.') : 'the config'}: ${issue.message}`,
      fix: 'Correct the value in the draft and publish again',
      path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    });
  }
  const config = parsed.data;
  config.tools.forEach((id, index) => {
    if (!knownToolIds.has(id)) {
      throw new FlowConfigurationError({
        code: 'unknown-tool',
        where: 'agent tools',
        what: `the allow-list names "${id}", which is neither a registered code tool nor an HTTP tool of this tenant`,
        fix: 'Remove it from the allow-list, or create the HTTP tool first',
        path: ['tools', index],
      });
    }
  });

  const warnings: FlowWarning[] = [];
  warnings.push(...validateFields(config.fields, { path: ['fields'] }).warnings);
  const registries: FlowRegistries = {
    fields: config.fields as FieldsDef,
    tools: config.tools,
    actions: known.actions,
    conditions: known.conditions,
  };
  warnings.push(...validateIdle(config.idle, registries, { path: ['idle'] }).warnings);
  // fromSpec refuses what only a spec can get wrong (kind, unknown keys); validateFlows then runs
  // validateFlow on each and checks flow ids are unique across the agent.
  const flows = config.flows.map((spec, index) => fromSpec(spec, { path: ['flows', index] }));
  warnings.push(...validateFlows(flows, registries, { path: ['flows'] }).warnings);
  return { config, warnings };
}
