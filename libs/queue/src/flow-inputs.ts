import { createHash } from 'node:crypto';

// Events and manual flow starts reported over the API ("flow inputs"). Each is stored as a Wake
// row due at once, keyed by `input:<kind>:<name>:<key>` (unique per session, so a retried POST
// finds its first row), with its payload; its job is a `{turns}` job with the wake's job id, so
// the worker runs it under the session lease and the sweeper restores it like any due wake.

export type FlowInput =
  | { kind: 'event'; event: string; key: string; data?: Record<string, unknown> }
  | { kind: 'start'; flow: string; key: string };

const PREFIX = 'input:';

/** The Wake key of a flow input. The engine's own wake keys never start with `input:`. */
export function flowInputWakeKey(input: FlowInput): string {
  return `${PREFIX}${input.kind}:${input.kind === 'event' ? input.event : input.flow}:${input.key}`;
}

export function isFlowInputWakeKey(key: string): boolean {
  return key.startsWith(PREFIX);
}

/** One job id per (session, wake key): the API, the worker and the sweeper add the same job once. */
export function wakeJobId(sessionId: string, key: string): string {
  return `wake-${createHash('sha256').update(`${sessionId}\n${key}`).digest('hex').slice(0, 40)}`;
}

/** The job name a wake key's job carries (for people reading the queue; the worker reads the key). */
export function wakeJobName(key: string): 'wake' | 'event' | 'start' {
  if (key.startsWith(`${PREFIX}event:`)) return 'event';
  if (key.startsWith(`${PREFIX}start:`)) return 'start';
  return 'wake';
}
