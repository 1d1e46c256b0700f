// Durations in flow definitions and clocks are short strings ("30s", "5m", "24h", "3d") so
// flows stay JSON and readable; a plain number is milliseconds.

export class DurationError extends Error {
  readonly code = 'invalid-duration';
  readonly input: unknown;

  constructor(input: unknown, why: string) {
    super(
      `[DurationError] ${describe(input)} is not a duration: ${why}. ` +
        'Write a whole number followed by ms, s, m, h or d (for example "30s", "5m", "24h", "3d"), or a number of milliseconds.',
    );
    this.name = 'DurationError';
    this.input = input;
  }
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const DURATION = /^(\d+)(ms|s|m|h|d)$/;

/** Milliseconds in a duration: `"30s"` → 30000, `"3d"` → 259200000, `1500` → 1500. */
export function parseDuration(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new DurationError(input, 'it is not a finite number');
    if (input < 0) throw new DurationError(input, 'it is negative');
    return input;
  }
  if (typeof input !== 'string') throw new DurationError(input, 'it is neither a string nor a number');
  const match = DURATION.exec(input.trim());
  if (!match) {
    throw new DurationError(input, input.trim() === '' ? 'it is empty' : 'it does not read as <number><unit>');
  }
  const ms = Number(match[1]) * UNIT_MS[match[2]];
  if (!Number.isSafeInteger(ms)) throw new DurationError(input, 'it is too large');
  return ms;
}

function describe(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input);
  if (typeof input === 'number') return String(input);
  return input === null ? 'null' : typeof input;
}
