// validateFlow's checks for the rest of the flow language (engine.md §6): do, if and wait
// steps, branches, predicates, step targets (`then: { flow }`), durations and business hours.
import { DurationError, parseDuration } from '../clock/duration';
import { parseHhmm } from '../clock/business-hours';
import type { FlowRegistries } from '../types/agent';
import type { StructuredSchema } from '../types/tool';
import { describeValue, hasOwn, isNonEmptyString, isPlainObject, listNames, quote, type Scope } from './json-checks';

const END_STEP = 'end';
const PREDICATE_KEYS = ['equals', 'known', 'condition'];
const BRANCH_KEYS = ['if', 'when', 'then'];
const HOURS_KEYS = ['start', 'end', 'days', 'timeZone'];

/** A duration string ("30s", "5m", "24h", "3d"); returns its milliseconds. */
export function checkDuration(value: unknown, scope: Scope, key: string | number): number {
  try {
    if (typeof value !== 'string') throw new DurationError(value, 'it is not a string');
    return parseDuration(value);
  } catch (err) {
    const why = err instanceof DurationError ? err.message.replace(/^\[DurationError\] /, '').replace(/\. Write .*$/, '') : String(err);
    return scope.at(key).fail('invalid-duration', why, 'Write a whole number followed by ms, s, m, h or d, such as "30s", "5m", "24h" or "3d"');
  }
}

/** A step target: a step id of this flow, `end`, or `{ flow }` naming a flow of the agent. */
export function checkTarget(value: unknown, scope: Scope, key: string | number, ids: readonly string[], registries: FlowRegistries): void {
  if (typeof value === 'string') {
    if (value === END_STEP || ids.includes(value)) return;
    scope.at(key).fail('unknown-step', `${key} names ${quote(value)}, which is not a step of this flow`, `Use one of ${listNames([...ids, END_STEP])}`);
  }
  if (!isPlainObject(value) || !isNonEmptyString(value.flow) || Object.keys(value).length !== 1) {
    return scope.at(key).fail('invalid-type', `${key} must be a step id, "end" or { flow: "<flow id>" }, got ${describeValue(value)}`, `Set ${key} to a step id of this flow, "end", or { flow: "<flow id>" }`);
  }
  const flow = value.flow as string;
  if (registries.flows && !registries.flows.includes(flow)) {
    scope.at(key, 'flow').fail('unknown-flow', `${key} chains into ${quote(flow)}, which is not a flow of the agent`, `Use one of ${listNames(registries.flows)}`);
  }
}

export function checkPredicate(value: unknown, scope: Scope, registries: FlowRegistries): void {
  const conditions = registries.conditions ?? [];
  const checkCondition = (name: unknown, at: Scope) => {
    if (!isNonEmptyString(name)) at.fail('invalid-predicate', `a condition name must be a non-empty string, got ${describeValue(name)}`, 'Name a registered condition');
    if (!conditions.includes(name)) {
      at.fail(
        'unknown-condition',
        `the condition ${quote(name)} is not registered`,
        conditions.length === 0 ? `Register it with f.condition(${quote(name)}, test) (the agent has none)` : `Register it with f.condition(), or use one of ${listNames(conditions)}`,
      );
    }
  };
  if (typeof value === 'string') return checkCondition(value, scope);
  if (!isPlainObject(value) || Object.keys(value).length === 0) {
    return scope.fail('invalid-predicate', `a predicate must be a condition name or an object with equals, known or condition, got ${describeValue(value)}`, 'Write { equals: { field: value } }, { known: ["field"] } or a registered condition name');
  }
  for (const key of Object.keys(value)) {
    if (!PREDICATE_KEYS.includes(key)) scope.at(key).fail('invalid-predicate', `${quote(key)} is not a predicate key`, `Use ${listNames(PREDICATE_KEYS)}`);
  }
  if (value.equals !== undefined) {
    const equals = value.equals;
    if (!isPlainObject(equals) || Object.keys(equals).length === 0) {
      return scope.at('equals').fail('invalid-predicate', 'equals must be an object of field → value with at least one field', 'Write equals: { cidade: "Curitiba" }');
    }
    for (const [slug, expected] of Object.entries(equals)) {
      if (!hasOwn(registries.fields, slug)) scope.at('equals', slug).fail('unknown-field', `equals names ${quote(slug)}, which is not a field of the agent`, `Use one of ${listNames(Object.keys(registries.fields))}`);
      if (expected !== null && !['string', 'number', 'boolean'].includes(typeof expected)) {
        scope.at('equals', slug).fail('invalid-predicate', `equals.${slug} must be a string, number, boolean or null, got ${describeValue(expected)}`, 'Compare with a plain value; null means "not known"');
      }
    }
  }
  if (value.known !== undefined) {
    const known = value.known;
    if (!Array.isArray(known) || known.length === 0) return scope.at('known').fail('invalid-predicate', 'known must be a non-empty array of field slugs', 'Write known: ["cidade"]');
    known.forEach((slug: unknown, index: number) => {
      if (typeof slug !== 'string' || !hasOwn(registries.fields, slug)) {
        scope.at('known', index).fail('unknown-field', `known names ${describeValue(slug)}, which is not a field of the agent`, `Use one of ${listNames(Object.keys(registries.fields))}`);
      }
    });
  }
  if (value.condition !== undefined) {
    const names = Array.isArray(value.condition) ? value.condition : [value.condition];
    names.forEach((name: unknown, index: number) => checkCondition(name, Array.isArray(value.condition) ? scope.at('condition', index) : scope.at('condition')));
  }
}

/** `{ do, with?, onFail? }`: a registered action whose params `with` satisfies. */
export function checkDoStep(step: Record<string, unknown>, scope: Scope, registries: FlowRegistries): void {
  const actions = registries.actions ?? {};
  if (!isNonEmptyString(step.do)) scope.wrongType('do', 'the name of a registered action', step.do);
  if (!hasOwn(actions, step.do)) {
    const names = Object.keys(actions);
    scope.at('do').fail(
      'unknown-action',
      `do names ${quote(step.do)}, which is not a registered action`,
      names.length === 0 ? `Register it with f.action(${quote(step.do)}, { handler }) (the agent has none)` : `Register it with f.action(), or use one of ${listNames(names)}`,
    );
  }
  if (step.with !== undefined && !isPlainObject(step.with)) scope.wrongType('with', 'an object of parameter → value', step.with);
  checkParams((step.with ?? {}) as Record<string, unknown>, actions[step.do], scope, step.do);
}

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
  object: (v) => isPlainObject(v),
  null: (v) => v === null,
};

/** `with` against the action's params: required present, no unknown names, simple types and enums right. */
function checkParams(given: Record<string, unknown>, params: StructuredSchema | undefined, scope: Scope, action: string): void {
  const properties = (params?.properties ?? {}) as Record<string, { type?: string | string[]; enum?: unknown[] }>;
  const names = Object.keys(properties);
  for (const name of params?.required ?? []) {
    if (!hasOwn(given, name)) scope.at('with').fail('missing-param', `action ${quote(action)} needs the parameter ${quote(name)}`, `Add ${name} to with`);
  }
  for (const [name, value] of Object.entries(given)) {
    if (!hasOwn(properties, name)) {
      if (params?.additionalProperties === true) continue;
      scope.at('with', name).fail(
        'unknown-param',
        `action ${quote(action)} takes no parameter ${quote(name)}`,
        names.length === 0 ? 'Remove it (the action takes no parameters)' : `Use one of ${listNames(names)}`,
      );
    }
    const schema = properties[name];
    const types = schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length > 0 && !types.some((t) => JSON_TYPES[t]?.(value) ?? true)) {
      scope.at('with', name).fail('invalid-param', `parameter ${quote(name)} of action ${quote(action)} must be ${types.join(' or ')}, got ${describeValue(value)}`, `Give ${name} a value of type ${types.join(' or ')}`);
    }
    if (Array.isArray(schema?.enum) && !schema.enum.some((e) => e === value)) {
      scope.at('with', name).fail('invalid-param', `parameter ${quote(name)} of action ${quote(action)} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${describeValue(value)}`, 'Use one of the listed values');
    }
  }
}

/** `{ wait: "5m" | { event, upTo? }, else?, businessHours? }`. */
export function checkWaitStep(step: Record<string, unknown>, scope: Scope): void {
  if (typeof step.wait === 'string') {
    checkDuration(step.wait, scope, 'wait');
    if (step.businessHours !== undefined) checkHours(step.businessHours, scope.at('businessHours'));
    return;
  }
  if (!isPlainObject(step.wait)) scope.wrongType('wait', 'a duration such as "5m", or { event, upTo? }', step.wait);
  for (const key of Object.keys(step.wait)) {
    if (key !== 'event' && key !== 'upTo') scope.at('wait', key).fail('unknown-key', `${quote(key)} is not a property of an event wait`, 'Use event and upTo');
  }
  if (!isNonEmptyString(step.wait.event)) scope.at('wait').wrongType('event', 'a non-empty event name', step.wait.event);
  if (step.wait.upTo !== undefined) checkDuration(step.wait.upTo, scope.at('wait'), 'upTo');
  if (step.businessHours !== undefined) {
    scope.at('businessHours').fail('mixed-step', 'businessHours applies to timers, not to an event wait', 'Remove businessHours, or wait for a duration');
  }
}

function checkHours(hours: unknown, scope: Scope): void {
  const fix = 'Write { start: "09:00", end: "18:00", days?: [1, 2, 3, 4, 5], timeZone?: "America/Sao_Paulo" }';
  if (!isPlainObject(hours)) scope.fail('invalid-hours', `businessHours must be an object, got ${describeValue(hours)}`, fix);
  for (const key of Object.keys(hours)) if (!HOURS_KEYS.includes(key)) scope.at(key).fail('invalid-hours', `${quote(key)} is not a businessHours property`, fix);
  const start = typeof hours.start === 'string' ? parseHhmm(hours.start) : undefined;
  const end = typeof hours.end === 'string' ? parseHhmm(hours.end) : undefined;
  if (start === undefined) return scope.at('start').fail('invalid-hours', `start must be a time "HH:MM", got ${describeValue(hours.start)}`, fix);
  if (end === undefined) return scope.at('end').fail('invalid-hours', `end must be a time "HH:MM", got ${describeValue(hours.end)}`, fix);
  if (end <= start) scope.at('end').fail('invalid-hours', `end (${hours.end}) must be after start (${hours.start})`, fix);
  if (hours.days !== undefined) {
    const ok = Array.isArray(hours.days) && hours.days.length > 0 && hours.days.every((d) => Number.isInteger(d) && d >= 0 && d <= 6);
    if (!ok) scope.at('days').fail('invalid-hours', `days must be a non-empty array of 0 (Sunday) to 6 (Saturday), got ${describeValue(hours.days)}`, fix);
  }
  if (hours.timeZone !== undefined) {
    try {
      if (typeof hours.timeZone !== 'string') throw new Error('not a string');
      new Intl.DateTimeFormat('en-US', { timeZone: hours.timeZone });
    } catch {
      scope.at('timeZone').fail('invalid-hours', `timeZone ${describeValue(hours.timeZone)} is not an IANA time zone`, 'Use a name such as "America/Sao_Paulo" or "UTC"');
    }
  }
}

/** `branches: [{ if?, when?, then }]` on a talk step. */
export function checkBranches(branches: unknown, scope: Scope, ids: readonly string[], registries: FlowRegistries): void {
  if (!Array.isArray(branches) || branches.length === 0) scope.wrongType('branches', 'a non-empty array of { if?, when?, then }', branches);
  branches.forEach((branch, index) => {
    const at = scope.at('branches', index);
    if (!isPlainObject(branch)) at.fail('invalid-type', `branches[${index}] must be an object, got ${describeValue(branch)}`, 'Write { when: "…", then: "<step>" }');
    for (const key of Object.keys(branch)) if (!BRANCH_KEYS.includes(key)) at.at(key).fail('unknown-key', `${quote(key)} is not a branch property`, `Use ${listNames(BRANCH_KEYS)}`);
    if (branch.then === undefined) at.at('then').fail('unknown-step', `branches[${index}] has no then`, 'Name the step (or { flow }) the branch goes to');
    checkTarget(branch.then, at, 'then', ids, registries);
    if (branch.if !== undefined) checkPredicate(branch.if, at.at('if'), registries);
    if (branch.when !== undefined && !isNonEmptyString(branch.when)) at.wrongType('when', 'a yes/no question', branch.when);
  });
}
