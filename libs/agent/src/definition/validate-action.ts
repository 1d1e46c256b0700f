// Actions and conditions (engine.md §6) are registered by name: each needs a non-empty unique
// name and its function; an action's `params` must be a JSON Schema object, like a tool's.
import type { StructuredSchema } from '../types/tool';
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, isNonEmptyString, isPlainObject, quote, Scope } from './json-checks';
import { checkParameters } from './validate-tool';

/** Checks a list of actions; returns name → params for the flow registries. */
export function validateActions(actions: unknown, path: ConfigPath, warnings: FlowWarning[]): Record<string, StructuredSchema | undefined> {
  const scope: Scope = new Scope('agent', path, warnings);
  if (!Array.isArray(actions)) scope.fail('invalid-type', `actions must be an array of actions, got ${describeValue(actions)}`, 'Pass actions: [] or register them with f.action()');
  const out: Record<string, StructuredSchema | undefined> = {};
  actions.forEach((action, index) => {
    const at: Scope = new Scope(`action at index ${index}`, [...path, index], warnings);
    if (!isPlainObject(action)) at.fail('invalid-type', `an action must be an object, got ${describeValue(action)}`, 'Register it with f.action(name, { params?, handler })');
    const name = isNonEmptyString(action.name) ? action.name : at.at('name').fail('missing-id', `it has no name (got ${describeValue(action.name)})`, 'Give the action the non-empty name do steps call it by');
    const named: Scope = new Scope(`action ${quote(name)}`, [...path, index], warnings);
    if (Object.prototype.hasOwnProperty.call(out, name)) {
      named.at('name').fail('duplicate-action', `the name ${quote(name)} is registered twice`, 'Give each action its own name');
    }
    if (typeof action.handler !== 'function') named.wrongType('handler', 'a function', action.handler, 'Pass handler: (params, ctx) => ({ ok: true })');
    if (action.params !== undefined) checkParameters(action.params, named.at('params'));
    out[name] = action.params as StructuredSchema | undefined;
  });
  return out;
}

export function validateConditions(conditions: unknown, path: ConfigPath, warnings: FlowWarning[]): string[] {
  const scope: Scope = new Scope('agent', path, warnings);
  if (!Array.isArray(conditions)) scope.fail('invalid-type', `conditions must be an array of conditions, got ${describeValue(conditions)}`, 'Pass conditions: [] or register them with f.condition()');
  const names: string[] = [];
  conditions.forEach((condition, index) => {
    const at: Scope = new Scope(`condition at index ${index}`, [...path, index], warnings);
    if (!isPlainObject(condition)) at.fail('invalid-type', `a condition must be an object, got ${describeValue(condition)}`, 'Register it with f.condition(name, test)');
    const name = isNonEmptyString(condition.name) ? condition.name : at.at('name').fail('missing-id', `it has no name (got ${describeValue(condition.name)})`, 'Give the condition the non-empty name predicates call it by');
    const named: Scope = new Scope(`condition ${quote(name)}`, [...path, index], warnings);
    if (names.includes(name)) named.at('name').fail('duplicate-condition', `the name ${quote(name)} is registered twice`, 'Give each condition its own name');
    if (typeof condition.test !== 'function') named.wrongType('test', 'a function', condition.test, 'Pass test: (ctx) => boolean');
    names.push(name);
  });
  return names;
}
