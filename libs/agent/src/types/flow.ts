// Flows, steps and triggers (engine.md §2).

export interface Trigger {
  /** Example phrases the understand call scores against; `!phrase` excludes; `[]` is a catch-all. */
  message: string[];
  /** Default `once`: the flow starts at most once per session through this trigger. */
  repeat?: 'once' | 'always';
}

/** A step id, or `end`. */
export type StepTarget = string;

export interface TalkStep<S extends string = string> {
  id: string;
  prompt?: string;
  collect?: S[];
  /** Allow-list of tool ids for this step's speak call (tool.md). */
  tools?: string[];
  /** Per-field override of the field's own `ask`. */
  ask?: Partial<Record<S, string>>;
  /** A fixed first ask, sent word for word with no model call. */
  question?: string;
  /** How many times a field is asked before it stops being asked. Default 3. */
  maxAsks?: number;
  then?: StepTarget;
  say?: undefined;
}

export interface SayStep {
  id: string;
  say: string;
  then?: StepTarget;
}

export type Step<S extends string = string> = TalkStep<S> | SayStep;

export interface Flow<S extends string = string> {
  id: string;
  name: string;
  description?: string;
  on?: Trigger[];
  steps: Step<S>[];
  tools?: string[];
  instructions?: string;
  onEnd?: 'end';
}

export type IdleConfig = { prompt?: string; tools?: string[]; instructions?: string } | 'silent';

export function isSayStep(step: Step): step is SayStep {
  return typeof (step as SayStep).say === 'string';
}
