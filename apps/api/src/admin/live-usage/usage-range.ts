import { z } from 'zod';
import { ValidationFailedError } from '../../common/errors/http-errors';
import { issuesToDetails } from '../../common/validation/zod-validation.pipe';
import type { AdminUser } from '../auth/admin-user';
import { tenantScope } from '../tenant-scope';
import type { TurnRange } from './turn-figures';

/** Turn-level figures read every turn of the range: longer ranges use the daily roll-up instead. */
export const MAX_EXACT_DAYS = 31;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')
  // Round-trip: Date.parse rolls 2026-02-31 over to March 3 instead of refusing it.
  .refine((v) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(ms) && !v.startsWith('0000') && new Date(ms).toISOString().slice(0, 10) === v;
  }, 'a real day between the years 1 and 9999');
const filter = z.strictObject({ from: day, to: day, agentId: z.uuid().optional() });
const query = z.strictObject({ filter: z.string() });

/** `?filter={"from":"2026-12-01","to":"2026-12-03","agentId":...}` (the usage list's filter) as a turn range. */
export function parseUsageRange(user: AdminUser, raw: unknown): TurnRange & { days: number } {
  const q = query.safeParse(raw);
  if (!q.success) throw new ValidationFailedError('Send ?filter={"from":"YYYY-MM-DD","to":"YYYY-MM-DD"} (agentId optional).', issuesToDetails(q.error.issues, 'query'));
  const range = rangeFromFilter(user, q.data.filter, { strict: true });
  if (!range) throw new Error('a strict parse returns a range or throws');
  return range;
}

/**
 * The filter's from..to (inclusive days) as [from, to + 1 day). Strict: a bad filter is a 400;
 * otherwise null (the usage list's filter may also hold other keys or no range).
 */
export function rangeFromFilter(user: AdminUser, text: string, { strict }: { strict: boolean }): (TurnRange & { days: number }) | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (!strict) return null;
    throw new ValidationFailedError('"filter" is not valid JSON.', [{ location: 'query', path: 'filter', issue: 'invalid_json', message: 'not JSON' }]);
  }
  const f = filter.safeParse(json);
  if (!f.success) {
    if (!strict) return null;
    throw new ValidationFailedError('Invalid usage filter. See error.details.', issuesToDetails(f.error.issues, 'query'));
  }
  const from = new Date(`${f.data.from}T00:00:00Z`);
  const to = new Date(`${f.data.to}T00:00:00Z`);
  to.setUTCDate(to.getUTCDate() + 1); // `to` is inclusive: up to the end of that day
  const days = Math.round((to.getTime() - from.getTime()) / 86_400_000);
  if (days < 1) {
    if (!strict) return null;
    throw new ValidationFailedError('"from" is after "to".', [{ location: 'query', path: 'filter.from', issue: 'too_big', message: 'from must not be after to' }]);
  }
  return { ...tenantScope(user), agentId: f.data.agentId, from, to, days };
}
