// Flows, steps and triggers (engine.md §2 and §6).
import type { FieldValue } from './fields';

/** `once` (default for message, mention, silence), `always` (default for event), or a cooldown. */
export type Repeat = 'once' | 'always' | { cooldown: string };

/** Example phrases the understand call scores against; `!phrase` excludes; `[]` is a catch-all. */
export interface MessageTrigger {
  message: string[];
  repeat?: Repeat;
}

/** Starts a side run when the message mentions it; `extract` lists fields read from that message. */
export interface MentionTrigger {
  mention: string[];
  extract?: string[];
  repeat?: Repeat;
}

/** Starts on `turn({ event, key })`; `after` delays the start by a duration. */
export interface EventTrigger {
  event: string;
  after?: string;
  repeat?: Repeat;
}

/** Starts when the assistant spoke last and nobody wrote for this long. */
export interface SilenceTrigger {
  silence: string;
  repeat?: Repeat;
}

export type Trigger = MessageTrigger | MentionTrigger | EventTrigger | SilenceTrigger;

/** A step id, `end`, or another flow to chain into. */
export type StepTarget = string | { flow: string };

/**
 * A JSON-safe condition: `equals` (every field equals its value), `known` (every field known),
 * `condition` (registered conditions by name); all keys given must hold. A bare string names
 * one registered condition.
 */
export type Predicate =
  | string
  | {
      equals?: Record<string, FieldValue | null>;
      known?: string[];
      condition?: string | string[];
    };

/** Judged on the next customer message while its talk step asks; the first that holds wins. */
export interface Branch {
  /** Checked by code. */
  if?: Predicate;
  /** A yes/no question about the message, judged inside the understand call. */
  when?: string;
  then: StepTarget;
}

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
  branches?: Branch[];
  then?: StepTarget;
  say?: undefined;
  do?: undefined;
  if?: undefined;
  wait?: undefined;
}

export interface SayStep {
  id: string;
  say: string;
  then?: StepTarget;
}

/** Runs a registered action. */
export interface DoStep {
  id: string;
  do: string;
  with?: Record<string, unknown>;
  /** Where a failed action goes; default `then`. */
  onFail?: StepTarget;
  then?: StepTarget;
}

/** Goes to `then` when the predicate holds, else to `else` (default `end`). */
export interface IfStep {
  id: string;
  if: Predicate;
  then: StepTarget;
  else?: StepTarget;
}

/** Business hours a timer's due time is moved into. */
export interface BusinessHours {
  /** `HH:MM`, local. */
  start: string;
  /** `HH:MM`, local, after `start`. */
  end: string;
  /** 0 = Sunday … 6 = Saturday. Default Monday to Friday. */
  days?: number[];
  /** IANA time zone. Default `UTC`. */
  timeZone?: string;
}

/** A timer (`"30s"`) or an event wait (`{ event, upTo? }`). */
export interface WaitStep {
  id: string;
  wait: string | { event: string; upTo?: string };
  /** Timer: where a customer reply goes (default `end`). Event: where `upTo` goes (default `end`). */
  else?: StepTarget;
  businessHours?: BusinessHours;
  then?: StepTarget;
}

export type Step<S extends string = string> = TalkStep<S> | SayStep | DoStep | IfStep | WaitStep;

export interface Flow<S extends string = string> {
  id: string;
  name: string;
  description?: string;
  on?: Trigger[];
  steps: Step<S>[];
  tools?: string[];
  instructions?: string;
  /** `end` (default): the run ends. `stay`: it stays on its last step. `reset`: it ends and clears the flow's fields and claims. */
  onEnd?: 'end' | 'stay' | 'reset';
}

export type IdleConfig = { prompt?: string; tools?: string[]; instructions?: string } | 'silent';

export function isSayStep(step: Step): step is SayStep {
  return typeof (step as SayStep).say === 'string';
}

export function isDoStep(step: Step): step is DoStep {
  return typeof (step as DoStep).do === 'string';
}

export function isIfStep(step: Step): step is IfStep {
  return (step as IfStep).if !== undefined;
}

export function isWaitStep(step: Step): step is WaitStep {
  return (step as WaitStep).wait !== undefined;
}

export function isTalkStep(step: Step): step is TalkStep {
  return !isSayStep(step) && !isDoStep(step) && !isIfStep(step) && !isWaitStep(step);
}

export function isMessageTrigger(t: Trigger): t is MessageTrigger {
  return Array.isArray((t as MessageTrigger).message);
}
export function isMentionTrigger(t: Trigger): t is MentionTrigger {
  return Array.isArray((t as MentionTrigger).mention);
}
export function isEventTrigger(t: Trigger): t is EventTrigger {
  return typeof (t as EventTrigger).event === 'string';
}
export function isSilenceTrigger(t: Trigger): t is SilenceTrigger {
  return typeof (t as SilenceTrigger).silence === 'string';
}
