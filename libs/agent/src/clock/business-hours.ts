// Moves a due time into business hours: a wake due while closed fires at the next opening.
// Durations are not counted in open hours; only the due time moves.
import type { BusinessHours } from '../types/flow';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEKDAYS = [1, 2, 3, 4, 5];
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function parseHhmm(text: string): number | undefined {
  const match = HHMM.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Local wall-clock parts of an instant in a time zone. */
function localParts(ms: number, timeZone: string): { day: number; minutes: number; dateMs: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const dateMs = Date.UTC(get('year'), get('month') - 1, get('day'));
  return { day: new Date(dateMs).getUTCDay(), minutes: get('hour') * 60 + get('minute'), dateMs };
}

/** The zone's offset (local − UTC) at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const local = localParts(ms, timeZone);
  const seconds = new Date(ms).getUTCSeconds() * 1000 + new Date(ms).getUTCMilliseconds();
  return local.dateMs + local.minutes * MINUTE + seconds - ms;
}

/** The instant of a local date (UTC midnight ms of that calendar day) and minute of day. */
function instantOf(dateMs: number, minutes: number, timeZone: string): number {
  const guess = dateMs + minutes * MINUTE;
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

export function intoBusinessHours(dueMs: number, hours: BusinessHours): number {
  const timeZone = hours.timeZone ?? 'UTC';
  const start = parseHhmm(hours.start)!;
  const end = parseHhmm(hours.end)!;
  const days = hours.days ?? WEEKDAYS;
  const local = localParts(dueMs, timeZone);
  if (days.includes(local.day) && local.minutes >= start && local.minutes < end) return dueMs;
  // The next opening: today if it has not opened yet, else the next open day.
  for (let ahead = 0; ahead <= 7; ahead += 1) {
    const dateMs = local.dateMs + ahead * DAY;
    const day = new Date(dateMs).getUTCDay();
    if (!days.includes(day)) continue;
    if (ahead === 0 && local.minutes >= start) continue;
    return instantOf(dateMs, start, timeZone);
  }
  return dueMs;
}
