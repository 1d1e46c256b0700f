// Field definitions (engine.md §1). They come from code or from a tenant's JSON config, so
// they get the same untrusted-JSON checks as flows.
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, isNonEmptyString, isPlainObject, quote, Scope } from './json-checks';

const FIELD_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
const FIELD_KEYS = new Set(['type', 'enum', 'description', 'label', 'ask', 'extract']);

/**
 * Keys the speak envelope already uses (`{ message, <pending slug>… }`): a field with one of
 * these slugs would be confused with the reply itself.
 */
export const RESERVED_FIELD_SLUGS: readonly string[] = ['message'];

/** Throws `FlowConfigurationError` on the first bad field; returns warnings otherwise. */
export function validateFields(fields: unknown, options: { path?: ConfigPath } = {}): { warnings: FlowWarning[] } {
  const warnings: FlowWarning[] = [];
  const root: Scope = new Scope('fields', options.path ?? [], warnings);
  if (!isPlainObject(fields)) root.fail('invalid-type', `fields must be an object of slug → field, got ${describeValue(fields)}`, 'Write fields as { cidade: { type: "string" } }');
  for (const [slug, field] of Object.entries(fields)) checkField(slug, field, root.child(`field ${quote(slug)}`, slug));
  return { warnings };
}

function checkField(slug: string, field: unknown, scope: Scope): void {
  if (slug.trim() === '') scope.fail('invalid-field', 'its slug is empty', 'Name the field with a non-empty slug, such as "cidade"');
  if (RESERVED_FIELD_SLUGS.includes(slug)) {
    scope.fail('reserved-field', `${quote(slug)} is reserved: the speak reply already has a ${quote(slug)} key`, 'Rename the field');
  }
  if (!isPlainObject(field)) scope.fail('invalid-field', `a field must be an object, got ${describeValue(field)}`, 'Write { type: "string" } (or "number", "integer", "boolean")');
  if (!(FIELD_TYPES as readonly unknown[]).includes(field.type)) {
    scope.at('type').fail('invalid-field', `type must be one of "string", "number", "integer", "boolean", got ${describeValue(field.type)}`, 'Set type to one of them');
  }
  const type = field.type as (typeof FIELD_TYPES)[number];
  for (const key of ['description', 'label', 'ask'] as const) {
    if (field[key] !== undefined && typeof field[key] !== 'string') scope.wrongType(key, 'a string', field[key]);
  }
  if (field.extract !== undefined && field.extract !== 'anywhere' && field.extract !== 'asked') {
    scope.wrongType('extract', '"anywhere" or "asked"', field.extract);
  }
  if (field.enum !== undefined) checkEnum(field.enum, type, scope);
  for (const key of Object.keys(field)) {
    if (!FIELD_KEYS.has(key)) scope.at(key).warn('unknown-key', `${quote(key)} is not a field property and is ignored`);
  }
}

function checkEnum(values: unknown, type: (typeof FIELD_TYPES)[number], scope: Scope): void {
  if (!Array.isArray(values) || values.length === 0) {
    scope.wrongType('enum', `a non-empty array of ${type} values`, values, 'List the allowed values, or remove enum');
  }
  values.forEach((value, index) => {
    if (!fitsType(value, type)) {
      const name = type === 'integer' ? 'a whole number' : `a ${type}`;
      scope.at('enum').wrongType(index, `${name}, like the field's type`, value, `Make every enum value ${name}`);
    }
  });
}

function fitsType(value: unknown, type: (typeof FIELD_TYPES)[number]): boolean {
  switch (type) {
    case 'string':
      return isNonEmptyString(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}
