// Values the model reports (understand reply, speak envelope) are checked and coerced before
// they are written (engine.md §1). Tool `data` never comes through here: it is written as given.
import type { FieldDef, FieldsDef, FieldValue } from '../types/fields';

export type DroppedCode = 'bad-value' | 'not-in-enum' | 'unknown-field';

export type CoerceResult = { ok: true; value: FieldValue } | { ok: false; code: 'bad-value' | 'not-in-enum' };

/** A field is known when its value is not `undefined`, `null` or `""`. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** `asked` for booleans (a stray "yes" must not confirm anything), `anywhere` for the rest. */
export function extractMode(field: Pick<FieldDef, 'type' | 'extract'>): 'anywhere' | 'asked' {
  return field.extract ?? (field.type === 'boolean' ? 'asked' : 'anywhere');
}

/** Coerces one reported value to its field's type, then checks the field's `enum`. */
export function coerceValue(field: Pick<FieldDef, 'type' | 'enum'>, value: unknown): CoerceResult {
  const coerced = toType(field.type, value);
  if (coerced === undefined) return { ok: false, code: 'bad-value' };
  if (field.enum && !field.enum.includes(coerced)) return { ok: false, code: 'not-in-enum' };
  return { ok: true, value: coerced };
}

export interface DroppedValue {
  slug: string;
  value: unknown;
  code: DroppedCode;
}

export interface CoercedValues {
  /** The values to write, coerced. */
  values: Record<string, FieldValue>;
  /** Values that were dropped, in the order they were reported; each becomes an outcome. */
  dropped: DroppedValue[];
}

/**
 * Coerces a map of reported values against the agent's fields. A value that is not known
 * (`null`, `""`, absent) means "not said" and is skipped without an outcome.
 */
export function coerceValues(fields: FieldsDef, reported: Record<string, unknown>): CoercedValues {
  const values: Record<string, FieldValue> = {};
  const dropped: DroppedValue[] = [];
  for (const [slug, value] of Object.entries(reported)) {
    if (!isKnown(value)) continue;
    const field = Object.prototype.hasOwnProperty.call(fields, slug) ? fields[slug] : undefined;
    if (!field) {
      dropped.push({ slug, value, code: 'unknown-field' });
      continue;
    }
    const result = coerceValue(field, value);
    if (result.ok) values[slug] = result.value;
    else dropped.push({ slug, value, code: result.code });
  }
  return { values, dropped };
}

function toType(type: FieldDef['type'], value: unknown): FieldValue | undefined {
  switch (type) {
    case 'string':
      return toStringValue(value);
    case 'number':
      return toNumber(value);
    case 'integer': {
      const n = toNumber(value);
      // `+ 0` turns -0 into 0: JSON would write it as 0 anyway.
      return n === undefined ? undefined : Math.trunc(n) + 0;
    }
    case 'boolean':
      return toBoolean(value);
    default:
      return undefined;
  }
}

function toStringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

// A dot decimal with an optional exponent ("1500.5", "-3", ".5", "1e3"), or a single comma as
// the decimal mark ("1500,50"). Thousands separators ("1.500,50", "1,500.50") are refused:
// guessing which mark is which is how 1.500 becomes 1.5.
const DOT_DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const COMMA_DECIMAL = /^[+-]?\d*,\d+$|^[+-]?\d+,$/;

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  let n: number;
  if (DOT_DECIMAL.test(text)) n = Number(text);
  else if (COMMA_DECIMAL.test(text)) n = Number(text.replace(',', '.'));
  else return undefined;
  return Number.isFinite(n) ? n : undefined;
}

const TRUE_WORDS = new Set(['true', 'sim', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'não', 'nao', 'no', '0']);

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  // NFC so a decomposed "não" (a + combining tilde) reads like the composed one.
  const word = value.trim().normalize('NFC').toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}
