export { systemClock } from './clock';
export { type FakeClock, fakeClock, InvalidInstantError } from './fake-clock';
export { parseDuration, DurationError } from './duration';
