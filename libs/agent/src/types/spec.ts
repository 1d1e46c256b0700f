// The JSON form of a flow, as stored in a database and edited by the console (engine.md §2).

export type StepKind = 'prompt' | 'collect' | 'say';

export interface TriggerSpec {
  message: string[];
  repeat?: 'once' | 'always' | null;
}

/** One step, flat, with a `kind`; optional values may be `null`. */
export interface StepSpec {
  id: string;
  kind: StepKind;
  prompt?: string | null;
  collect?: string[] | null;
  tools?: string[] | null;
  ask?: Record<string, string> | null;
  question?: string | null;
  maxAsks?: number | null;
  say?: string | null;
  then?: string | null;
}

export interface FlowSpec {
  id: string;
  name: string;
  description?: string | null;
  on?: TriggerSpec[] | null;
  steps: StepSpec[];
  tools?: string[] | null;
  instructions?: string | null;
  onEnd?: 'end' | null;
}
