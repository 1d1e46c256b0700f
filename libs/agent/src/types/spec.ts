// The JSON form of a flow, as stored in a database and edited by the console (engine.md §2, §6).
import type { BusinessHours, Predicate, StepTarget } from './flow';

export type StepKind = 'prompt' | 'collect' | 'say' | 'do' | 'if' | 'wait';

/** One trigger: exactly one of message, mention, event or silence. */
export interface TriggerSpec {
  message?: string[] | null;
  mention?: string[] | null;
  extract?: string[] | null;
  event?: string | null;
  after?: string | null;
  silence?: string | null;
  repeat?: 'once' | 'always' | { cooldown: string } | null;
}

export interface BranchSpec {
  if?: Predicate | null;
  when?: string | null;
  then: StepTarget;
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
  branches?: BranchSpec[] | null;
  say?: string | null;
  do?: string | null;
  with?: Record<string, unknown> | null;
  onFail?: StepTarget | null;
  if?: Predicate | null;
  else?: StepTarget | null;
  wait?: string | { event: string; upTo?: string } | null;
  businessHours?: BusinessHours | null;
  then?: StepTarget | null;
}

export interface FlowSpec {
  id: string;
  name: string;
  description?: string | null;
  on?: TriggerSpec[] | null;
  steps: StepSpec[];
  tools?: string[] | null;
  instructions?: string | null;
  onEnd?: 'end' | 'stay' | 'reset' | null;
}
