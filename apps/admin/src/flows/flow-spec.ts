// Saving the flow editor's form as FlowSpec JSON (engine.md §6): each step writes only the keys
// of its kind, so a step switched from wait to say does not keep a leftover `wait`.
import type { BranchSpec, FieldType, FieldValue, FlowSpec, PredicateSpec, StepSpec, StepTargetSpec, TriggerSpec } from '../agents/agent-config.js';
import { FLOW_TARGET, type FlowForm, type PredicateForm, type StepForm, type TargetForm, type TriggerForm } from './flow-form.js';
import { defined, DraftInputError, list, text, withEmpties } from './form-values.js';

/** Field slug → type, to write an `equals` value with the field's JSON type. */
export type FieldTypes = Record<string, FieldType>;

/** Keys each step kind writes besides id, kind and then. */
const KIND_KEYS: Record<StepSpec['kind'], readonly string[]> = {
  say: ['say'],
  prompt: ['prompt', 'collect', 'tools', 'ask', 'maxAsks', 'branches'],
  collect: ['prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks', 'branches'],
  do: ['do', 'with', 'onFail'],
  if: ['if', 'else'],
  wait: ['wait', 'else', 'businessHours'],
};

export function targetToSpec(target: TargetForm | null | undefined): StepTargetSpec | undefined {
  if (!target) return undefined;
  return target.startsWith(FLOW_TARGET) ? { flow: target.slice(FLOW_TARGET.length) } : target;
}

/** A typed value as the field's type reads it; text that does not read as that type stays text. */
export function coerce(value: string, type: FieldType | undefined): FieldValue {
  if (type === 'number' || type === 'integer') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

/** Undefined when the predicate has nothing in it. */
export function predicateToSpec(p: PredicateForm | undefined, types: FieldTypes): PredicateSpec | undefined {
  if (!p) return undefined;
  const equals = (p.equals ?? [])
    .filter((e) => e.field)
    .map((e): [string, FieldValue | null] => {
      if (e.op === 'unknown') return [e.field, null];
      if (e.original !== undefined && String(e.original) === e.value) return [e.field, e.original];
      return [e.field, coerce(e.value ?? '', types[e.field])];
    });
  const known = p.known ?? [];
  const conditions = (p.conditions ?? []).filter(Boolean);
  if (equals.length === 0 && known.length === 0 && conditions.length === 0) return undefined;
  if (p.shape === 'name' && equals.length === 0 && known.length === 0 && conditions.length === 1) return conditions[0];
  return defined({
    equals: equals.length ? Object.fromEntries(equals) : undefined,
    known: list(known),
    condition: conditions.length === 0 ? undefined : conditions.length === 1 && !p.conditionList ? conditions[0] : conditions,
  });
}

function triggerToSpec(t: TriggerForm): TriggerSpec {
  const repeat = t.repeat === 'cooldown' ? { cooldown: t.cooldown ?? '' } : t.repeat || undefined;
  const phrases = t.message ?? [];
  const byKind: Record<TriggerForm['kind'], TriggerSpec> = {
    message: { message: phrases },
    mention: withEmpties({ mention: phrases, extract: list(t.extract) }, t.empties),
    event: { event: t.event ?? '', after: text(t.after) },
    silence: { silence: t.silence ?? '' },
  };
  return defined({ ...t.extra, ...byKind[t.kind ?? 'message'], repeat });
}

function withOf(s: StepForm, at: string): Record<string, unknown> | undefined {
  if (s.with === undefined || s.with === null || s.with === '') return undefined;
  if (typeof s.with === 'string') {
    try {
      return JSON.parse(s.with) as Record<string, unknown>;
    } catch (err) {
      throw new DraftInputError(`The action's parameters are not valid JSON: ${(err as Error).message}`, `${at}.with`);
    }
  }
  return s.with as Record<string, unknown>;
}

function stepToSpec(s: StepForm, at: string, types: FieldTypes): StepSpec {
  const kind = s.kind ?? 'prompt';
  const ask = Object.fromEntries((s.askList ?? []).filter((a) => a.slug && a.text).map((a) => [a.slug, a.text]));
  const branches = (s.branches ?? []).map((b) =>
    defined({ if: predicateToSpec(b.predicate, types), when: text(b.when), then: targetToSpec(b.then) as StepTargetSpec }) as BranchSpec,
  );
  const hours = s.hours;
  const wait = s.wait ?? { mode: 'timer', duration: '', event: '', upTo: '' };
  const all: Omit<StepSpec, 'id' | 'kind'> = {
    prompt: text(s.prompt),
    collect: list(s.collect),
    tools: s.noTools ? [] : list(s.tools),
    ask: Object.keys(ask).length ? ask : undefined,
    question: text(s.question),
    maxAsks: s.maxAsks ?? undefined,
    branches: list(branches),
    say: s.say ?? '',
    do: s.action ?? '',
    with: withOf(s, at),
    onFail: targetToSpec(s.onFail),
    // An if step needs a predicate: an empty one is sent as {} so the engine names the input.
    if: kind === 'if' ? (predicateToSpec(s.predicate, types) ?? {}) : undefined,
    else: targetToSpec(s.else),
    wait: wait.mode === 'event' ? defined({ event: wait.event ?? '', upTo: text(wait.upTo) }) : (wait.duration ?? ''),
    businessHours:
      wait.mode === 'timer' && hours?.enabled
        ? defined({ start: hours.start ?? '', end: hours.end ?? '', days: list(hours.days), timeZone: text(hours.timeZone) })
        : undefined,
  };
  const owned = KIND_KEYS[kind];
  const own = Object.fromEntries(Object.entries(all).filter(([k]) => owned.includes(k)));
  return withEmpties(defined({ ...s.extra, id: s.id, kind, ...own, then: targetToSpec(s.then) }), s.empties, owned);
}

/** The FlowSpec of the flow at `draft.flows.<index>`. */
export function flowToSpec(f: FlowForm, index: number, types: FieldTypes): FlowSpec {
  return withEmpties(
    defined({
      ...f.extra,
      id: f.id,
      name: f.name || f.id,
      description: text(f.description),
      instructions: text(f.instructions),
      on: list((f.on ?? []).map(triggerToSpec)),
      tools: f.noTools ? [] : list(f.tools),
      steps: (f.steps ?? []).map((s, i) => stepToSpec(s, `draft.flows.${index}.steps.${i}`, types)),
      onEnd: f.onEnd || undefined,
    }),
    f.empties,
  );
}
