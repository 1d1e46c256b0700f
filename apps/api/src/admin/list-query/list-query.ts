import { InvalidCharactersError } from '../../common/errors/http-errors';
import { findUnstorable } from '../../common/validation/storable-text';
import { InvalidListQueryError } from '../admin-errors';

// react-admin's simple-REST dialect (ra-data-simple-rest):
//   ?sort=["field","ASC"]&range=[start,end]&filter={"key":value}
// Each list route declares which fields sort, which keys filter and how; anything else is a
// 400 with a code saying which parameter was wrong, never a database error.

export const MAX_PAGE_SIZE = 100;

export type SortOrder = 'asc' | 'desc';

/** Turns one filter value into a where fragment, or throws FilterValueError. */
export type FilterParser<Where> = (value: unknown) => Where;

export class FilterValueError extends Error {}

export interface ListSpec<Where> {
  /** Name used in the Content-Range header, e.g. "sessions". */
  resource: string;
  sortFields: readonly string[];
  defaultSort: readonly [string, SortOrder];
  /** A unique field appended to every sort so pages never overlap or skip rows. */
  tieBreaker: string;
  filters: Readonly<Record<string, FilterParser<Where>>>;
}

export interface ListQuery<Where> {
  orderBy: Record<string, SortOrder>[];
  skip: number;
  take: number;
  where: Where[];
}

const KNOWN_PARAMS = new Set(['sort', 'range', 'filter']);

export function parseListQuery<Where>(query: Record<string, unknown>, spec: ListSpec<Where>): ListQuery<Where> {
  for (const key of Object.keys(query ?? {})) {
    if (!KNOWN_PARAMS.has(key)) {
      throw new InvalidListQueryError('unknown-query-parameter', `Unknown query parameter "${key}"; use sort, range and filter.`);
    }
  }
  const [field, order] = parseSort(query.sort, spec);
  const { start, end } = parseRange(query.range);
  const orderBy = [{ [field]: order }];
  if (field !== spec.tieBreaker) orderBy.push({ [spec.tieBreaker]: order });
  return { orderBy, skip: start, take: end - start + 1, where: parseFilter(query.filter, spec) };
}

function single(name: string, value: unknown, code: 'invalid-sort' | 'invalid-range' | 'invalid-filter'): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidListQueryError(code, `Send "${name}" once, as JSON.`);
  return value;
}

function parseJson(text: string, name: string, code: 'invalid-sort' | 'invalid-range' | 'invalid-filter'): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidListQueryError(code, `"${name}" is not valid JSON.`);
  }
}

function parseSort<Where>(raw: unknown, spec: ListSpec<Where>): [string, SortOrder] {
  const text = single('sort', raw, 'invalid-sort');
  if (text === undefined) return [spec.defaultSort[0], spec.defaultSort[1]];
  const value = parseJson(text, 'sort', 'invalid-sort');
  const usage = `Use sort=["<field>","ASC"|"DESC"] with a field among: ${spec.sortFields.join(', ')}.`;
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') {
    throw new InvalidListQueryError('invalid-sort', `"sort" must be a [field, order] pair. ${usage}`);
  }
  const [field, order] = value as [string, string];
  if (!spec.sortFields.includes(field)) {
    throw new InvalidListQueryError('invalid-sort', `${spec.resource} cannot be sorted by "${field}". ${usage}`, {
      allowed: spec.sortFields,
    });
  }
  const upper = order.toUpperCase();
  if (upper !== 'ASC' && upper !== 'DESC') {
    throw new InvalidListQueryError('invalid-sort', `Sort order "${order}" is neither ASC nor DESC.`);
  }
  return [field, upper === 'ASC' ? 'asc' : 'desc'];
}

function parseRange(raw: unknown): { start: number; end: number } {
  const text = single('range', raw, 'invalid-range');
  if (text === undefined) return { start: 0, end: MAX_PAGE_SIZE - 1 };
  const value = parseJson(text, 'range', 'invalid-range');
  const usage = `Use range=[start,end]: integers, 0 <= start <= end, at most ${MAX_PAGE_SIZE} rows.`;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isSafeInteger(n))) {
    throw new InvalidListQueryError('invalid-range', `"range" must be two integers. ${usage}`);
  }
  const [start, end] = value as [number, number];
  if (start < 0 || end < start) throw new InvalidListQueryError('invalid-range', `Range [${start},${end}] is backwards or negative. ${usage}`);
  if (end - start + 1 > MAX_PAGE_SIZE) {
    throw new InvalidListQueryError('invalid-range', `Range [${start},${end}] asks for ${end - start + 1} rows. ${usage}`, {
      maxPageSize: MAX_PAGE_SIZE,
    });
  }
  return { start, end };
}

function parseFilter<Where>(raw: unknown, spec: ListSpec<Where>): Where[] {
  const text = single('filter', raw, 'invalid-filter');
  if (text === undefined) return [];
  const value = parseJson(text, 'filter', 'invalid-filter');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidListQueryError('invalid-filter', '"filter" must be a JSON object.');
  }
  // JSON escapes (\u0000, \ud800) reach here only after parsing, past the check on raw values.
  const unstorable = findUnstorable(value, 'filter');
  if (unstorable) throw new InvalidCharactersError('query', unstorable.path, unstorable.reason);
  const where: Where[] = [];
  for (const [key, v] of Object.entries(value)) {
    // Own keys only: `toString` or `constructor` must not find Object.prototype's functions.
    const parse = Object.hasOwn(spec.filters, key) ? spec.filters[key] : undefined;
    if (!parse) {
      throw new InvalidListQueryError('invalid-filter', `${spec.resource} cannot be filtered by "${key}"; use: ${Object.keys(spec.filters).join(', ')}.`, {
        allowed: Object.keys(spec.filters),
      });
    }
    try {
      where.push(parse(v));
    } catch (err) {
      if (err instanceof FilterValueError) {
        throw new InvalidListQueryError('invalid-filter', `Filter "${key}": ${err.message}`);
      }
      throw err;
    }
  }
  return where;
}

// `sessions 0-24/319`; for an empty page `sessions <star>/0`, the RFC 9110 form of an unsatisfied range.
export function contentRange(resource: string, skip: number, count: number, total: number): string {
  return count === 0 ? `${resource} */${total}` : `${resource} ${skip}-${skip + count - 1}/${total}`;
}
