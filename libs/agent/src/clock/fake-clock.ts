import type { Clock } from '../types/agent';
import { parseDuration } from './duration';

/** A clock that stands still until a test moves it. */
export interface FakeClock extends Clock {
  /** Moves time forward by a duration ("5m", "30s", "2h", "3d") or milliseconds; returns the new time. */
  advance(by: string | number): Date;
  /** Jumps to an instant (ISO string or Date); returns it. */
  set(to: string | Date): Date;
}

export class InvalidInstantError extends Error {
  readonly code = 'invalid-instant';

  constructor(input: unknown) {
    super(
      `[InvalidInstantError] ${input instanceof Date ? 'Invalid Date' : JSON.stringify(input)} is not an instant. ` +
        'Pass an ISO 8601 string such as "2026-12-02T13:00:00Z" or a valid Date.',
    );
    this.name = 'InvalidInstantError';
  }
}

export function fakeClock(start: string | Date = '2026-01-01T00:00:00.000Z'): FakeClock {
  let ms = toMs(start);
  return {
    // A fresh Date each call: callers that mutate it cannot move the clock.
    now: () => new Date(ms),
    advance(by) {
      ms += parseDuration(by);
      return new Date(ms);
    },
    set(to) {
      ms = toMs(to);
      return new Date(ms);
    },
  };
}

function toMs(input: string | Date): number {
  const ms = input instanceof Date ? input.getTime() : typeof input === 'string' ? Date.parse(input) : NaN;
  if (Number.isNaN(ms)) throw new InvalidInstantError(input);
  return ms;
}
