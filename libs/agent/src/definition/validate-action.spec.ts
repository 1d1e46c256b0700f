// Actions and conditions are checked when the agent is built (engine.md §6).
import { FlowConfigurationError } from './errors';
import { validateAgentDefinition } from './validate-agent';

const base = { fields: {}, tools: [], flows: [] };
const handler = () => ({ ok: true as const });

function thrown(definition: Parameters<typeof validateAgentDefinition>[0]): FlowConfigurationError {
  try {
    validateAgentDefinition(definition);
  } catch (err) {
    if (err instanceof FlowConfigurationError) return err;
  }
  throw new Error('expected a FlowConfigurationError');
}

describe('actions and conditions', () => {
  it('accepts named actions with JSON Schema params and named conditions', () => {
    expect(() =>
      validateAgentDefinition({
        ...base,
        actions: [{ name: 'cobrar', params: { type: 'object', properties: { valor: { type: 'number' } } }, handler }],
        conditions: [{ name: 'vip', test: () => true }],
      }),
    ).not.toThrow();
  });

  it.each<[string, Parameters<typeof validateAgentDefinition>[0], string, string, (string | number)[]]>([
    ['an action without a name', { ...base, actions: [{ handler }] }, 'missing-id', '[FlowConfigurationError] action at index 0: it has no name (got nothing). Give the action the non-empty name do steps call it by.', ['actions', 0, 'name']],
    ['two actions with one name', { ...base, actions: [{ name: 'a', handler }, { name: 'a', handler }] }, 'duplicate-action', '[FlowConfigurationError] action "a": the name "a" is registered twice. Give each action its own name.', ['actions', 1, 'name']],
    ['an action without a handler', { ...base, actions: [{ name: 'a' }] }, 'invalid-type', '[FlowConfigurationError] action "a": handler must be a function, got nothing. Pass handler: (params, ctx) => ({ ok: true }).', ['actions', 0, 'handler']],
    ['shorthand params', { ...base, actions: [{ name: 'a', params: { valor: { type: 'number' } }, handler }] }, 'invalid-parameters', '[FlowConfigurationError] action "a": parameters is a shorthand map of arguments, not a JSON Schema object. Write { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] }.', ['actions', 0, 'params', 'type']],
    ['two conditions with one name', { ...base, conditions: [{ name: 'c', test: () => true }, { name: 'c', test: () => true }] }, 'duplicate-condition', '[FlowConfigurationError] condition "c": the name "c" is registered twice. Give each condition its own name.', ['conditions', 1, 'name']],
    ['a condition without test', { ...base, conditions: [{ name: 'c' }] }, 'invalid-type', '[FlowConfigurationError] condition "c": test must be a function, got nothing. Pass test: (ctx) => boolean.', ['conditions', 0, 'test']],
  ])('refuses %s', (_name, definition, code, message, path) => {
    const err = thrown(definition);
    expect([err.code, err.message, err.path]).toEqual([code, message, path]);
  });
});
