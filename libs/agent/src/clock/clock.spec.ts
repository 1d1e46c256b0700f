import { DurationError, fakeClock, InvalidInstantError, parseDuration, systemClock } from './index';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['24h', 86_400_000],
    ['3d', 259_200_000],
    ['250ms', 250],
    [' 2h ', 7_200_000],
    [1500, 1500],
    [0, 0],
  ])('reads %p as %p ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it('names the input, the reason and the accepted forms when it cannot read a duration', () => {
    expect(() => parseDuration('5x')).toThrow(
      '[DurationError] "5x" is not a duration: it does not read as <number><unit>. ' +
        'Write a whole number followed by ms, s, m, h or d (for example "30s", "5m", "24h", "3d"), or a number of milliseconds.',
    );
  });

  it.each([
    ['', '"" is not a duration: it is empty.'],
    ['1.5h', '"1.5h" is not a duration: it does not read as <number><unit>.'],
    ['-5m', '"-5m" is not a duration: it does not read as <number><unit>.'],
    [-1, '-1 is not a duration: it is negative.'],
    [Infinity, 'Infinity is not a duration: it is not a finite number.'],
    ['99999999999999999d', '"99999999999999999d" is not a duration: it is too large.'],
  ])('refuses %p', (input, message) => {
    expect(() => parseDuration(input)).toThrow(message);
  });

  it('refuses values of the wrong type with a stable code', () => {
    let caught: unknown;
    try {
      parseDuration(null as unknown as string);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DurationError);
    expect((caught as DurationError).code).toBe('invalid-duration');
    expect((caught as DurationError).message).toContain('null is not a duration: it is neither a string nor a number.');
  });
});

describe('fakeClock', () => {
  it('stands still at the instant it was given', () => {
    const clock = fakeClock('2026-12-02T13:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-12-02T13:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-12-02T13:00:00.000Z');
  });

  it('advances by durations and by milliseconds', () => {
    const clock = fakeClock('2026-12-02T13:00:00Z');
    expect(clock.advance('5m').toISOString()).toBe('2026-12-02T13:05:00.000Z');
    expect(clock.advance('30s').toISOString()).toBe('2026-12-02T13:05:30.000Z');
    expect(clock.advance('2h').toISOString()).toBe('2026-12-02T15:05:30.000Z');
    expect(clock.advance('3d').toISOString()).toBe('2026-12-05T15:05:30.000Z');
    expect(clock.advance(500).toISOString()).toBe('2026-12-05T15:05:30.500Z');
    expect(clock.now().toISOString()).toBe('2026-12-05T15:05:30.500Z');
  });

  it('jumps to an ISO string or a Date', () => {
    const clock = fakeClock('2026-12-02T13:00:00Z');
    expect(clock.set('2027-01-01T00:00:00Z').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    clock.set(new Date('2025-06-01T12:00:00Z'));
    expect(clock.now().toISOString()).toBe('2025-06-01T12:00:00.000Z');
  });

  it('cannot be moved by mutating a Date it returned', () => {
    const clock = fakeClock('2026-12-02T13:00:00Z');
    clock.now().setFullYear(1999);
    expect(clock.now().toISOString()).toBe('2026-12-02T13:00:00.000Z');
  });

  it('refuses an instant it cannot read, and keeps its time', () => {
    expect(() => fakeClock('yesterday')).toThrow(
      '[InvalidInstantError] "yesterday" is not an instant. Pass an ISO 8601 string such as "2026-12-02T13:00:00Z" or a valid Date.',
    );
    const clock = fakeClock('2026-12-02T13:00:00Z');
    expect(() => clock.set(new Date('nope'))).toThrow(InvalidInstantError);
    expect(() => clock.advance('soon')).toThrow(DurationError);
    expect(clock.now().toISOString()).toBe('2026-12-02T13:00:00.000Z');
  });
});

describe('systemClock', () => {
  it('reads the real time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
