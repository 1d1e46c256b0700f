// Runs and the session blob (engine.md §2 and §5). Everything here is JSON-safe: dates are ISO strings.
import type { StepOutcome } from './outcome';

export type RunStatus = 'running' | 'asking' | 'waiting' | 'suspended';

/**
 * Why a run waits for a wake: a provider `retry`, a `timer` wait, an `event` wait (its `upTo`
 * wake), or a deferred action (`defer`).
 */
export interface RunWaiting {
  /** The wake key `turn({ wake })` must carry to resume this run. */
  key: string;
  /** ISO time the wake is due. */
  at: string;
  reason: 'retry' | 'timer' | 'event' | 'defer';
  /** The event an `event` wait waits for. */
  event?: string;
}

/** A wake that belongs to no run: a delayed event start or a silence follow-up. */
export interface SessionWake {
  key: string;
  at: string;
  kind: 'start' | 'silence';
  flowId: string;
  /** Index of the trigger in the flow's `on`. */
  trigger: number;
  /** The start's trigger key (`start`: the event key). */
  startKey?: string;
}

export interface Run {
  /** `${flowId}#${triggerKey}`. */
  id: string;
  flowId: string;
  stepId: string;
  status: RunStatus;
  /** How many times each field was asked. */
  asked: Record<string, number>;
  /** How many times each step was entered. */
  visits: Record<string, number>;
  startedAt: string;
  /** The last 50 outcomes of this run. */
  outcomes: StepOutcome[];
  /** Set while `status` is `waiting`. */
  waiting?: RunWaiting;
  /** Consecutive failed speak calls of the current visit (the retry ladder's rung). */
  failures?: number;
  /** True once the current visit's talk step has spoken (a prompt-only step moves on after). */
  spoke?: boolean;
  /** ISO time the run was suspended; the most recent resumes first. */
  suspendedAt?: string;
  /** The run finished its flow and stays on its last step (`onEnd: "stay"`). */
  stayed?: boolean;
  /** Flows chained before this one (`then: { flow }`); a start at hop 5 is refused. */
  hop?: number;
  /** Started by a mention, beside the run that took the message (it never takes the floor from an asking run). */
  side?: boolean;
}

export interface Session {
  id: string;
  /** Bumped by the store on save, never by the engine. */
  version: number;
  data: Record<string, unknown>;
  /** Live runs; ended runs leave the session (they are reported in `TurnResult.ended`). */
  runs: Run[];
  /**
   * Trigger claims: `${flowId}:${triggerIndex}` → ISO time the trigger first started its flow.
   * A `repeat: "once"` trigger with a claim never starts again in this session.
   */
  claims: Record<string, string>;
  /** The last 50 input ids, oldest first. */
  inputs: string[];
  /** Wakes that belong to no run (delayed event starts, silence follow-ups). */
  wakes?: SessionWake[];
  lastUserAt?: string;
  lastAssistantAt?: string;
  metadata: Record<string, unknown>;
}
