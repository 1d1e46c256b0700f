// A tool's `parameters` must be a JSON Schema object (tool.md): providers take the malformed
// shorthand map `{ cidade: { type: "string" } }` without complaint and then never call the tool.
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, isNonEmptyString, isPlainObject, quote, Scope } from './json-checks';

const EXAMPLE = '{ type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] }';

/** Checks a tool's id and parameters; throws `FlowConfigurationError`, returns warnings. */
export function validateTool(tool: unknown, options: { path?: ConfigPath; index?: number } = {}): { warnings: FlowWarning[] } {
  const warnings: FlowWarning[] = [];
  const path = options.path ?? [];
  const unnamed: Scope = new Scope(options.index === undefined ? 'tool' : `tool at index ${options.index}`, path, warnings);
  if (!isPlainObject(tool)) unnamed.fail('invalid-type', `a tool must be an object, got ${describeValue(tool)}`, 'Pass { id, description?, parameters?, handler }');
  if (!isNonEmptyString(tool.id)) return unnamed.at('id').fail('missing-id', `it has no id (got ${describeValue(tool.id)})`, 'Give the tool the non-empty string id the model will call it by');
  const scope: Scope = new Scope(`tool ${quote(tool.id)}`, path, warnings);
  if (tool.description !== undefined && typeof tool.description !== 'string') scope.wrongType('description', 'a string', tool.description);
  if (tool.parameters !== undefined) checkParameters(tool.parameters, scope.at('parameters'));
  return { warnings };
}

export function checkParameters(parameters: unknown, scope: Scope): void {
  if (!isPlainObject(parameters)) {
    scope.fail('invalid-parameters', `parameters must be a JSON Schema object, got ${describeValue(parameters)}`, `Write ${EXAMPLE}`);
  }
  if (parameters.type !== 'object') {
    const what = looksLikeShorthand(parameters)
      ? 'parameters is a shorthand map of arguments, not a JSON Schema object'
      : `parameters must be a JSON Schema with type "object", got type ${describeValue(parameters.type)}`;
    scope.at('type').fail('invalid-parameters', what, `Write ${EXAMPLE}`);
  }
  const properties = parameters.properties;
  if (properties !== undefined) {
    if (!isPlainObject(properties)) {
      return scope.at('properties').fail('invalid-parameters', `properties must be an object of argument name → schema, got ${describeValue(properties)}`, `Write ${EXAMPLE}`);
    }
    for (const [name, schema] of Object.entries(properties)) {
      if (!isPlainObject(schema) && typeof schema !== 'boolean') {
        scope.at('properties', name).fail('invalid-parameters', `the schema of argument ${quote(name)} must be an object, got ${describeValue(schema)}`, 'Write it as { type: "string" } (or another JSON Schema)');
      }
    }
  }
  const required = parameters.required;
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string')) {
      return scope.at('required').fail('invalid-parameters', `required must be an array of argument names, got ${describeValue(required)}`, 'List the names of the required arguments, such as ["cidade"]');
    }
    (required as string[]).forEach((name, index) => {
      if (!isPlainObject(properties) || !Object.prototype.hasOwnProperty.call(properties, name)) {
        scope.at('required', index).warn('required-not-in-properties', `required names ${quote(name)}, which is not in properties`);
      }
    });
  }
}

/** `{ cidade: { type: "string" } }`: every value is a schema-like object and there is no `type: "object"`. */
function looksLikeShorthand(parameters: Record<string, unknown>): boolean {
  const values = Object.values(parameters);
  return values.length > 0 && values.every((value) => isPlainObject(value) && 'type' in value);
}
