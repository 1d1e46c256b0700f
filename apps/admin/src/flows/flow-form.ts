// The flow editor's form model: a FlowSpec (engine.md §6) shaped for inputs, and its loading
// from a spec. Saving is in flow-spec.ts; both directions keep every valid spec unchanged.
import type { FieldValue, FlowSpec, PredicateSpec, StepKind, StepSpec, StepTargetSpec, TriggerSpec } from '../agents/agent-config.js';
import { emptiesOf, extraOf } from './form-values.js';

/**
 * A step target as one select value: '' (the kind's default), a step id, "end", or
 * FLOW_TARGET + a flow id for `{ flow }`.
 */
export type TargetForm = string;
export const FLOW_TARGET = '⇢flow:';

export interface EqualsForm {
  field: string;
  /** `unknown` compares with null: the field is not known yet. */
  op: 'is' | 'unknown';
  value: string;
  /** The loaded value, written back as it was (its JSON type) while the text still reads the same. */
  original?: FieldValue;
}

export interface PredicateForm {
  equals: EqualsForm[];
  known: string[];
  conditions: string[];
  /** How the loaded spec wrote it: a bare condition name, or an object (condition as a list?). */
  shape: 'name' | 'object';
  conditionList: boolean;
}

export interface BranchForm {
  when: string;
  predicate: PredicateForm;
  then: TargetForm;
}

export interface AskForm {
  slug: string;
  text: string;
}

export interface WaitForm {
  mode: 'timer' | 'event';
  duration: string;
  event: string;
  upTo: string;
}

export interface HoursForm {
  enabled: boolean;
  start: string;
  end: string;
  /** 0 (Sunday) to 6; none ticked = Monday to Friday. */
  days: number[];
  timeZone: string;
}

export interface StepForm {
  id: string;
  kind: StepKind;
  /** '' = the next step. */
  then: TargetForm;
  // Talk steps (prompt, collect).
  prompt: string;
  collect: string[];
  tools: string[];
  /** `tools: []`: the step offers no tools at all (none ticked means "the flow's"). */
  noTools: boolean;
  askList: AskForm[];
  question: string;
  maxAsks: number | null;
  branches: BranchForm[];
  // say
  say: string;
  // do
  action: string;
  /** The action's parameters: an object, or the text typed while it is not valid JSON. */
  with?: unknown;
  /** '' = `then`. */
  onFail: TargetForm;
  // if
  predicate: PredicateForm;
  /** if and wait: '' = end. */
  else: TargetForm;
  // wait
  wait: WaitForm;
  hours: HoursForm;
  extra: Record<string, unknown>;
  empties?: Record<string, unknown>;
}

export type TriggerKind = 'message' | 'mention' | 'event' | 'silence';
export type RepeatForm = '' | 'once' | 'always' | 'cooldown';

export interface TriggerForm {
  kind: TriggerKind;
  /** Phrases of a message or mention trigger. */
  message: string[];
  extract: string[];
  event: string;
  after: string;
  silence: string;
  /** '' = the kind's default (once; always for events). */
  repeat: RepeatForm;
  cooldown: string;
  extra: Record<string, unknown>;
  empties?: Record<string, unknown>;
}

export type OnEndForm = '' | 'end' | 'stay' | 'reset';

export interface FlowForm {
  id: string;
  name: string;
  description: string;
  instructions: string;
  on: TriggerForm[];
  /** Ticked tools narrow the agent's allow-list; none ticked = all of the agent's. */
  tools: string[];
  noTools: boolean;
  steps: StepForm[];
  onEnd: OnEndForm;
  extra: Record<string, unknown>;
  empties?: Record<string, unknown>;
}

export const STEP_KEYS = [
  'id', 'kind', 'then', 'prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks', 'branches',
  'say', 'do', 'with', 'onFail', 'if', 'else', 'wait', 'businessHours',
] as const;
export const FLOW_KEYS = ['id', 'name', 'description', 'on', 'steps', 'tools', 'instructions', 'onEnd'] as const;
export const TRIGGER_KEYS = ['message', 'mention', 'extract', 'event', 'after', 'silence', 'repeat'] as const;
/** Keys whose empty value ('' / [] / {}) differs from leaving them out in the JSON. */
const FLOW_EMPTIES = ['description', 'instructions', 'on'];
const STEP_EMPTIES = ['collect', 'ask'];
const TRIGGER_EMPTIES = ['extract'];

export const emptyPredicate = (): PredicateForm => ({ equals: [], known: [], conditions: [], shape: 'object', conditionList: false });

export function emptyTrigger(kind: TriggerKind = 'message'): TriggerForm {
  return { kind, message: [], extract: [], event: '', after: '', silence: '', repeat: '', cooldown: '', extra: {} };
}

export function emptyStep(kind: StepKind = 'prompt', id = ''): StepForm {
  return {
    id,
    kind,
    then: '',
    prompt: '',
    collect: [],
    tools: [],
    noTools: false,
    askList: [],
    question: '',
    maxAsks: null,
    branches: [],
    say: '',
    action: '',
    onFail: '',
    predicate: emptyPredicate(),
    else: '',
    wait: { mode: 'timer', duration: '', event: '', upTo: '' },
    hours: { enabled: false, start: '09:00', end: '18:00', days: [], timeZone: '' },
    extra: {},
  };
}

export function emptyFlow(id: string): FlowForm {
  return {
    id,
    name: '',
    description: '',
    instructions: '',
    on: [emptyTrigger()],
    tools: [],
    noTools: false,
    steps: [emptyStep('prompt', 'step1')],
    onEnd: '',
    extra: {},
  };
}

export function targetFromSpec(target: StepTargetSpec | null | undefined): TargetForm {
  if (target === null || target === undefined) return '';
  return typeof target === 'string' ? target : `${FLOW_TARGET}${target.flow}`;
}

export function predicateFromSpec(p: PredicateSpec | null | undefined): PredicateForm {
  if (typeof p === 'string') return { ...emptyPredicate(), conditions: [p], shape: 'name' };
  if (!p) return emptyPredicate();
  const condition = p.condition;
  return {
    equals: Object.entries(p.equals ?? {}).map(([field, v]) =>
      v === null ? { field, op: 'unknown', value: '' } : { field, op: 'is', value: String(v), original: v },
    ),
    known: p.known ?? [],
    conditions: condition === undefined || condition === null ? [] : Array.isArray(condition) ? condition : [condition],
    shape: 'object',
    conditionList: Array.isArray(condition),
  };
}

function triggerFromSpec(t: TriggerSpec): TriggerForm {
  const kind: TriggerKind = t.mention != null ? 'mention' : t.event != null ? 'event' : t.silence != null ? 'silence' : 'message';
  const repeat = t.repeat;
  return {
    kind,
    message: (kind === 'mention' ? t.mention : t.message) ?? [],
    extract: t.extract ?? [],
    event: t.event ?? '',
    after: t.after ?? '',
    silence: t.silence ?? '',
    repeat: repeat === null || repeat === undefined ? '' : typeof repeat === 'string' ? repeat : 'cooldown',
    cooldown: typeof repeat === 'object' && repeat !== null ? repeat.cooldown : '',
    extra: extraOf(t, TRIGGER_KEYS),
    empties: emptiesOf(t, TRIGGER_EMPTIES),
  };
}

function stepFromSpec(s: StepSpec): StepForm {
  const base = emptyStep(s.kind ?? 'prompt', s.id ?? '');
  const wait = s.wait;
  const hours = s.businessHours;
  return {
    ...base,
    then: targetFromSpec(s.then),
    prompt: s.prompt ?? '',
    collect: s.collect ?? [],
    tools: s.tools ?? [],
    noTools: Array.isArray(s.tools) && s.tools.length === 0,
    askList: Object.entries(s.ask ?? {}).map(([slug, text]) => ({ slug, text })),
    question: s.question ?? '',
    maxAsks: s.maxAsks ?? null,
    branches: (s.branches ?? []).map((b) => ({ when: b.when ?? '', predicate: predicateFromSpec(b.if), then: targetFromSpec(b.then) })),
    say: s.say ?? '',
    action: s.do ?? '',
    with: s.with ?? undefined,
    onFail: targetFromSpec(s.onFail),
    predicate: predicateFromSpec(s.if),
    else: targetFromSpec(s.else),
    wait:
      typeof wait === 'object' && wait !== null
        ? { mode: 'event', duration: '', event: wait.event ?? '', upTo: wait.upTo ?? '' }
        : { mode: 'timer', duration: wait ?? '', event: '', upTo: '' },
    hours: hours ? { enabled: true, start: hours.start ?? '', end: hours.end ?? '', days: hours.days ?? [], timeZone: hours.timeZone ?? '' } : base.hours,
    extra: extraOf(s, STEP_KEYS),
    empties: emptiesOf(s, STEP_EMPTIES),
  };
}

export function flowFromSpec(spec: FlowSpec): FlowForm {
  return {
    id: spec.id ?? '',
    name: spec.name ?? '',
    description: spec.description ?? '',
    instructions: spec.instructions ?? '',
    on: (spec.on ?? []).map(triggerFromSpec),
    tools: spec.tools ?? [],
    noTools: Array.isArray(spec.tools) && spec.tools.length === 0,
    steps: (spec.steps ?? []).map(stepFromSpec),
    onEnd: spec.onEnd ?? '',
    extra: extraOf(spec, FLOW_KEYS),
    empties: emptiesOf(spec, FLOW_EMPTIES),
  };
}
