// The engine reads time only from a Clock, so tests and replays control it.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};
