import { FilterValueError, MAX_PAGE_SIZE } from './list-query';

// Parsers for the filter values the admin lists accept. Ids are checked as UUIDs here because
// Postgres rejects a malformed UUID with an error, and that must be a 400, not a 500.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** One UUID, or a list of them (react-admin's getMany sends `{"id":[...]}`). */
export function uuidFilter<K extends string>(field: K) {
  return (value: unknown): Record<K, string | { in: string[] }> => {
    if (Array.isArray(value)) {
      if (value.length > MAX_PAGE_SIZE) throw new FilterValueError(`at most ${MAX_PAGE_SIZE} ids.`);
      if (!value.every(isUuid)) throw new FilterValueError('every id must be a UUID.');
      return { [field]: { in: value } } as Record<K, { in: string[] }>;
    }
    if (!isUuid(value)) throw new FilterValueError('must be a UUID or a list of UUIDs.');
    return { [field]: value } as Record<K, string>;
  };
}

export function enumFilter<K extends string, V extends string>(field: K, values: readonly V[]) {
  return (value: unknown): Record<K, V | { in: V[] }> => {
    const ok = (v: unknown): v is V => typeof v === 'string' && (values as readonly string[]).includes(v);
    if (Array.isArray(value) && value.length > 0 && value.every(ok)) return { [field]: { in: value } } as Record<K, { in: V[] }>;
    if (ok(value)) return { [field]: value } as Record<K, V>;
    throw new FilterValueError(`must be one of ${values.join(', ')} (or a list of them).`);
  };
}

export function textEqualsFilter<K extends string>(field: K, maxLength = 200) {
  return (value: unknown): Record<K, string> => {
    if (typeof value !== 'string' || value.length > maxLength) {
      throw new FilterValueError(`must be a string of at most ${maxLength} characters.`);
    }
    return { [field]: value } as Record<K, string>;
  };
}

/** Case-insensitive "contains", for react-admin's `q` search box. */
export function textContainsFilter<K extends string>(field: K, maxLength = 200) {
  return (value: unknown): Record<K, { contains: string; mode: 'insensitive' }> => {
    if (typeof value !== 'string' || value.length > maxLength) {
      throw new FilterValueError(`must be a string of at most ${maxLength} characters.`);
    }
    return { [field]: { contains: value, mode: 'insensitive' } } as Record<K, { contains: string; mode: 'insensitive' }>;
  };
}

/**
 * An ISO date or date-time; `gte` for "since", `lte` for "until". Years 1 to 9999 only: Postgres
 * has no year 0, and the driver writes other years in a form (`-000001-…`, `+010000-…`) that it
 * refuses with an error, which must be a 400 rather than a 500.
 */
export function dateBoundFilter<K extends string>(field: K, bound: 'gte' | 'lte') {
  return (value: unknown): Record<K, { gte: Date } | { lte: Date }> => {
    const date = typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new FilterValueError('must be an ISO 8601 date.');
    const year = date.getUTCFullYear();
    if (year < 1 || year > 9999) throw new FilterValueError(`must be a date between the years 1 and 9999 (got year ${year}).`);
    return { [field]: { [bound]: date } } as Record<K, { gte: Date } | { lte: Date }>;
  };
}
