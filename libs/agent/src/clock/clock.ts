// The engine reads time only from a Clock (the port in types/agent.ts), so tests and replays control it.
import type { Clock } from '../types/agent';

export const systemClock: Clock = {
  now: () => new Date(),
};
