// FlowSpec (engine.md §2): the JSON form of a flow kept in a database and edited by the
// console. Each step is flat with a `kind`; optional values may be null. `fromSpec` drops
// the nulls, `toSpec` derives the kind back, so `toSpec(fromSpec(s))` is `s` without nulls.
import type { FlowRegistries } from '../types/agent';
import type { Flow, Step, TalkStep, Trigger } from '../types/flow';
import type { FlowSpec, StepKind, StepSpec, TriggerSpec } from '../types/spec';
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, isPlainObject, quote, Scope } from './json-checks';
import { validateFlow } from './validate-flow';

const FLOW_KEYS = ['id', 'name', 'description', 'on', 'steps', 'tools', 'instructions', 'onEnd'] as const;
const STEP_KEYS = [
  'id', 'kind', 'prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks', 'branches', 'say', 'do', 'with', 'onFail', 'if', 'else', 'wait', 'businessHours', 'then',
] as const;
const TRIGGER_KEYS = ['message', 'mention', 'extract', 'event', 'after', 'silence', 'repeat'] as const;
const KINDS: readonly StepKind[] = ['prompt', 'collect', 'say', 'do', 'if', 'wait'];
/** Kinds named by the key that makes them. */
const KEYED_KINDS = ['say', 'do', 'if', 'wait'] as const;

export interface FromSpecOptions {
  /** Path of the spec inside the document, e.g. `["flows", 0]`. */
  path?: ConfigPath;
  /** When given, the flow also goes through `validateFlow`. */
  registries?: FlowRegistries;
  /** Receives validateFlow's warnings when `registries` is given. */
  warnings?: FlowWarning[];
}

/**
 * Turns a FlowSpec into a flow. Checks what only a spec can get wrong (unknown keys, `kind`
 * and whether it matches the step) and, with `registries`, everything `validateFlow` checks.
 */
export function fromSpec(spec: unknown, options: FromSpecOptions = {}): Flow {
  const scope: Scope = new Scope('flow spec', options.path ?? [], []);
  if (!isPlainObject(spec)) scope.fail('invalid-type', `a flow spec must be an object, got ${describeValue(spec)}`, 'Pass { id, name, steps: [...] }');
  const named: Scope = scope.child(typeof spec.id === 'string' && spec.id !== '' ? `flow ${quote(spec.id)}` : 'flow (no id)');
  refuseUnknownKeys(spec, FLOW_KEYS, named, 'a flow spec');

  const flow = withoutNulls(spec) as Record<string, unknown>;
  if (Array.isArray(flow.on)) {
    flow.on = flow.on.map((trigger, index) => {
      const at: Scope = named.child(`${named.where}, trigger at index ${index}`, 'on', index);
      if (isPlainObject(trigger)) refuseUnknownKeys(trigger, TRIGGER_KEYS, at, 'a trigger');
      return withoutNulls(trigger);
    });
  }
  if (Array.isArray(flow.steps)) flow.steps = flow.steps.map((step, index) => stepFromSpec(step, index, named));
  if (options.registries) {
    const { warnings } = validateFlow(flow, options.registries, { path: options.path });
    options.warnings?.push(...warnings);
  }
  return flow as unknown as Flow;
}

function stepFromSpec(spec: unknown, index: number, flow: Scope): unknown {
  if (!isPlainObject(spec)) return spec; // validateFlow names it
  const scope: Scope = flow.child(
    typeof spec.id === 'string' && spec.id !== '' ? `${flow.where}, step ${quote(spec.id)}` : `${flow.where}, step at index ${index}`,
    'steps',
    index,
  );
  refuseUnknownKeys(spec, STEP_KEYS, scope, 'a step spec');
  const { kind, ...rest } = withoutNulls(spec) as Record<string, unknown>;
  // Branches are objects with optional values too: their nulls go as well.
  if (Array.isArray(rest.branches)) rest.branches = rest.branches.map((branch) => withoutNulls(branch));
  if (!KINDS.includes(kind as StepKind)) {
    scope.wrongType('kind', 'one of "prompt", "collect", "say", "do", "if", "wait"', kind, 'Set kind to "prompt", "collect", "say", "do", "if" or "wait"');
  }
  checkKindMatches(kind as StepKind, rest, scope);
  return rest;
}

/** The kind must be the one `toSpec` would derive, or the round trip would change it. */
function checkKindMatches(kind: StepKind, step: Record<string, unknown>, scope: Scope): void {
  const collect = step.collect;
  const collects = Array.isArray(collect) && collect.length > 0;
  if (collect !== undefined && !Array.isArray(collect)) scope.wrongType('collect', 'an array of field slugs', collect);
  const at = scope.at('kind');
  const what: Record<(typeof KEYED_KINDS)[number], string> = { say: 'a say text', do: 'an action (do)', if: 'a predicate (if)', wait: 'a wait' };
  for (const keyed of KEYED_KINDS) {
    if (kind === keyed && step[keyed] === undefined) {
      at.fail('kind-mismatch', `kind is ${quote(keyed)} but it has no ${what[keyed].replace(/^an? /, '')}`, keyed === 'say' ? 'Write the text in say, or change kind' : `Write ${keyed}, or change kind`);
    }
    if (kind !== keyed && step[keyed] !== undefined) at.fail('kind-mismatch', `kind is ${quote(kind)} but it has ${what[keyed]}`, `Set kind to ${quote(keyed)}, or remove ${keyed}`);
  }
  if ((KEYED_KINDS as readonly string[]).includes(kind)) return;
  if (kind === 'collect' && !collects) at.fail('kind-mismatch', 'kind is "collect" but collect lists no field', 'List the fields in collect, or set kind to "prompt"');
  if (kind === 'prompt' && collects) at.fail('kind-mismatch', 'kind is "prompt" but collect lists fields', 'Set kind to "collect"');
  if (kind === 'prompt' && step.prompt === undefined) at.fail('kind-mismatch', 'kind is "prompt" but it has no prompt', 'Write the prompt, or change kind');
}

/** The kind `toSpec` writes for a step. */
export function stepKind(step: Step): StepKind {
  for (const keyed of KEYED_KINDS) if ((step as unknown as Record<string, unknown>)[keyed] !== undefined) return keyed;
  const collect = (step as TalkStep).collect;
  return collect !== undefined && collect.length > 0 ? 'collect' : 'prompt';
}

/** Turns a flow back into its FlowSpec: each step gets its `kind`; absent values stay absent. */
export function toSpec(flow: Flow): FlowSpec {
  const spec = pick(flow as unknown as Record<string, unknown>, FLOW_KEYS) as unknown as FlowSpec;
  if (flow.on) spec.on = flow.on.map((trigger: Trigger) => pick(trigger as unknown as Record<string, unknown>, TRIGGER_KEYS) as unknown as TriggerSpec);
  spec.steps = flow.steps.map((step) => {
    const { id, ...rest } = pick(step as unknown as Record<string, unknown>, STEP_KEYS.filter((key) => key !== 'kind'));
    return { id, kind: stepKind(step), ...rest } as StepSpec;
  });
  return spec;
}

function refuseUnknownKeys(object: Record<string, unknown>, known: readonly string[], scope: Scope, what: string): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      scope.at(key).fail('unknown-key', `${quote(key)} is not a property of ${what}`, `Remove it; the properties are ${known.map(quote).join(', ')}`);
    }
  }
}

/**
 * A deep copy of an object without its null (or undefined) properties. Only this level: a
 * null deeper down (`ask: { cidade: null }`) is a wrong value, and validateFlow names it.
 */
function withoutNulls(value: unknown): unknown {
  if (!isPlainObject(value)) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== null && inner !== undefined) copy[key] = structuredClone(inner);
  }
  return copy;
}

/** A deep copy of the listed keys that hold a value. */
function pick(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    if (object[key] !== undefined) copy[key] = structuredClone(object[key]);
  }
  return copy;
}
