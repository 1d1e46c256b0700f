// Everything f.agent() must refuse before an agent exists (engine.md §1): bad fields, tools
// whose parameters are not JSON Schema objects, idle.tools naming no tool, and every flow
// problem validateFlow finds. The API runs the same checks on a stored config.
import type { FlowRegistries } from '../types/agent';
import type { FieldsDef } from '../types/fields';
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, isNonEmptyString, isPlainObject, quote, Scope } from './json-checks';
import { checkToolList } from './tool-list';
import { validateFields } from './validate-fields';
import { validateFlow, type ValidationReport } from './validate-flow';
import { validateTool } from './validate-tool';
import { validateActions, validateConditions } from './validate-action';

/** What an agent is built from, read as untrusted values. */
export interface AgentDefinition {
  name?: unknown;
  fields: unknown;
  /** Tool objects: `id` and `parameters` are checked, the functions are not. */
  tools: unknown;
  flows: unknown;
  idle?: unknown;
  maxToolLoops?: unknown;
  /** Action objects (`name`, `params`, `handler`); absent: none. */
  actions?: unknown;
  /** Condition objects (`name`, `test`); absent: none. */
  conditions?: unknown;
}

export function validateAgentDefinition(definition: AgentDefinition, options: { path?: ConfigPath } = {}): ValidationReport {
  const base = options.path ?? [];
  const warnings: FlowWarning[] = [];
  const agent: Scope = new Scope('agent', base, warnings);
  if (definition.name !== undefined && !isNonEmptyString(definition.name)) agent.wrongType('name', 'a non-empty string', definition.name);
  warnings.push(...validateFields(definition.fields, { path: [...base, 'fields'] }).warnings);

  if (!Array.isArray(definition.tools)) agent.wrongType('tools', 'an array of tools', definition.tools, 'Pass tools: [] when the agent has none');
  const toolIds: string[] = [];
  definition.tools.forEach((tool, index) => {
    warnings.push(...validateTool(tool, { path: [...base, 'tools', index], index }).warnings);
    const id = (tool as { id: string }).id;
    if (toolIds.includes(id)) {
      // tool.md: ids are not checked for uniqueness; both are sent and the first handler runs.
      agent.at('tools', index).warn('duplicate-tool-id', `tools ${toolIds.indexOf(id)} and ${index} share the id ${quote(id)}; the model sees both and the first one's handler runs`);
    }
    toolIds.push(id);
  });

  const actions = validateActions(definition.actions ?? [], [...base, 'actions'], warnings);
  const conditions = validateConditions(definition.conditions ?? [], [...base, 'conditions'], warnings);
  const flowIds = Array.isArray(definition.flows) ? definition.flows.map((f) => (isPlainObject(f) ? f.id : undefined)).filter(isNonEmptyString) : [];
  const registries: FlowRegistries = { fields: definition.fields as FieldsDef, tools: toolIds, actions, conditions, flows: flowIds };
  warnings.push(...validateIdle(definition.idle, registries, { path: [...base, 'idle'] }).warnings);
  const loops = definition.maxToolLoops;
  if (loops !== undefined && (typeof loops !== 'number' || !Number.isInteger(loops) || loops < 0)) {
    agent.wrongType('maxToolLoops', 'a whole number, 0 or more', loops, 'Set maxToolLoops to 0 (no tools) or more, or remove it (default 5)');
  }
  warnings.push(...validateFlows(definition.flows, registries, { path: [...base, 'flows'] }).warnings);
  return { warnings };
}

/** Each flow through validateFlow (paths `flows/<i>/…`), then flow ids unique across the agent. */
export function validateFlows(flows: unknown, registries: FlowRegistries, options: { path?: ConfigPath } = {}): ValidationReport {
  const path = options.path ?? ['flows'];
  const warnings: FlowWarning[] = [];
  // `then: { flow }` may name any flow of the list.
  if (registries.flows === undefined && Array.isArray(flows)) {
    registries = { ...registries, flows: flows.map((f) => (isPlainObject(f) ? f.id : undefined)).filter(isNonEmptyString) };
  }
  const scope: Scope = new Scope('agent', path, warnings);
  if (!Array.isArray(flows)) scope.fail('invalid-type', `flows must be an array of flows, got ${describeValue(flows)}`, 'Pass flows: [] when the agent has none');
  const first = new Map<string, number>();
  flows.forEach((flow, index) => {
    warnings.push(...validateFlow(flow, registries, { path: [...path, index] }).warnings);
    const id = (flow as { id: string }).id;
    const earlier = first.get(id);
    if (earlier !== undefined) {
      scope
        .child(`flow ${quote(id)}`, index, 'id')
        .fail('duplicate-flow-id', `the id ${quote(id)} is already used by the flow at index ${earlier}`, 'Give each flow of an agent its own id');
    }
    first.set(id, index);
  });
  return { warnings };
}

/** `idle`: `"silent"` or `{ prompt?, tools?, instructions? }` whose tools are registered. */
export function validateIdle(idle: unknown, registries: FlowRegistries, options: { path?: ConfigPath } = {}): ValidationReport {
  const warnings: FlowWarning[] = [];
  const scope: Scope = new Scope('idle', options.path ?? ['idle'], warnings);
  if (idle === undefined || idle === 'silent') return { warnings };
  if (!isPlainObject(idle)) {
    scope.fail('invalid-type', `idle must be "silent" or an object, got ${describeValue(idle)}`, 'Write idle: "silent", or idle: { prompt?, tools?, instructions? }');
  }
  for (const key of ['prompt', 'instructions'] as const) {
    if (idle[key] !== undefined && typeof idle[key] !== 'string') scope.wrongType(key, 'a string', idle[key]);
  }
  if (idle.tools !== undefined) checkToolList(idle.tools, scope.at('tools'), 'idle.tools', registries.tools);
  for (const key of Object.keys(idle)) {
    if (!['prompt', 'tools', 'instructions'].includes(key)) scope.at(key).warn('unknown-key', `${quote(key)} is not an idle property and is ignored`);
  }
  return { warnings };
}
