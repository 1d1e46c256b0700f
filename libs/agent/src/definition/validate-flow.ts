// validateFlow (engine.md §2): everything about a flow that can be wrong before it runs.
// It reads the flow as untrusted JSON, so a flow that came from a database gets the same
// checks and messages as one written in TypeScript.
import type { FlowRegistries } from '../types/agent';
import type { ConfigPath } from './config-path';
import type { FlowWarning } from './errors';
import { describeValue, hasOwn, isNonEmptyString, isPlainObject, listNames, quote, Scope } from './json-checks';
import { checkToolList } from './tool-list';
import { checkBranches, checkDoStep, checkDuration, checkPredicate, checkTarget, checkWaitStep } from './validate-flow-language';

export interface ValidateOptions {
  /** Path of the flow inside the document being validated, e.g. `["flows", 0]`. */
  path?: ConfigPath;
}

export interface ValidationReport {
  /** Things that run but are probably mistakes. */
  warnings: FlowWarning[];
}

/** Step ids `then` may name besides the flow's steps. */
export const END_STEP = 'end';

const FLOW_KEYS = new Set(['id', 'name', 'description', 'on', 'steps', 'tools', 'instructions', 'onEnd']);
const TRIGGER_KINDS = ['message', 'mention', 'event', 'silence'] as const;
const TRIGGER_KEYS = new Set([...TRIGGER_KINDS, 'extract', 'after', 'repeat']);
/** Options only a talk step takes. */
const TALK_OPTIONS = ['tools', 'ask', 'question', 'maxAsks', 'branches'] as const;
/** What a step does: exactly one of these (a talk step has prompt and/or collect). */
const STEP_ACTIONS = ['say', 'do', 'if', 'wait'] as const;
/** Options of the other step kinds, and which kind takes each. */
const KIND_OPTIONS: Record<string, string> = { with: 'do', onFail: 'do', else: 'if or wait', businessHours: 'wait' };
const STEP_KEYS = new Set(['id', 'then', 'prompt', 'collect', ...STEP_ACTIONS, ...TALK_OPTIONS, ...Object.keys(KIND_OPTIONS)]);

// A phrase needs text besides its optional "!" (and "!" alone excludes nothing).
const PHRASE_HAS_TEXT = /^\s*(?:!\s*\S|[^\s!])/;
const EXCLUSION = /^\s*!/;

/** Throws `FlowConfigurationError` on the first problem; returns warnings otherwise. */
export function validateFlow(flow: unknown, registries: FlowRegistries, options: ValidateOptions = {}): ValidationReport {
  const warnings: FlowWarning[] = [];
  const root: Scope = new Scope('flow', options.path ?? [], warnings);
  if (!isPlainObject(flow)) {
    root.fail('invalid-type', `a flow must be an object, got ${describeValue(flow)}`, 'Pass { id, name, steps: [...] }');
  }
  const scope: Scope = root.child(isNonEmptyString(flow.id) ? `flow ${quote(flow.id)}` : 'flow (no id)');

  checkFlowProperties(flow, scope, registries);
  const steps = flow.steps as unknown[];
  const ids = steps.map((step, index) => checkStep(step, index, scope, registries));
  checkDuplicateIds(ids, scope);
  steps.forEach((step, index) => checkTargets(step as Record<string, unknown>, scope.child(stepWhere(scope, ids[index], index), 'steps', index), ids, registries));
  warnUnreachable(steps as Record<string, unknown>[], ids, scope);
  return { warnings };
}

function checkFlowProperties(flow: Record<string, unknown>, scope: Scope, registries: FlowRegistries): void {
  if (flow.id === undefined || flow.id === '') {
    scope.at('id').fail('missing-id', 'it has no id', 'Give the flow a non-empty string id, such as "hospedagem"');
  }
  if (!isNonEmptyString(flow.id)) scope.wrongType('id', 'a non-empty string', flow.id, 'Give the flow a non-empty string id, such as "hospedagem"');
  if (flow.name === undefined || flow.name === '') {
    scope.at('name').fail('missing-name', 'it has no name', 'Give the flow a name for people, such as "Hospedagem"');
  }
  if (!isNonEmptyString(flow.name)) scope.wrongType('name', 'a non-empty string', flow.name);
  optionalText(flow, 'description', scope);
  optionalText(flow, 'instructions', scope);
  if (flow.onEnd !== undefined && flow.onEnd !== 'end' && flow.onEnd !== 'stay' && flow.onEnd !== 'reset') {
    scope.wrongType('onEnd', '"end", "stay" or "reset"', flow.onEnd);
  }
  if (flow.steps === undefined) {
    scope.at('steps').fail('missing-steps', 'it has no steps', 'Add at least one step, such as { id: "inicio", prompt: "…" }');
  }
  if (!Array.isArray(flow.steps)) scope.wrongType('steps', 'an array of steps', flow.steps);
  if (flow.steps.length === 0) {
    scope.at('steps').fail('missing-steps', 'its steps list is empty', 'Add at least one step, such as { id: "inicio", prompt: "…" }');
  }
  if (flow.tools !== undefined) checkToolList(flow.tools, scope.at('tools'), 'tools', registries.tools);
  checkTriggers(flow.on, scope, registries);
  for (const key of Object.keys(flow)) {
    if (!FLOW_KEYS.has(key)) scope.at(key).warn('unknown-key', `${quote(key)} is not a flow property and is ignored`);
  }
}

function checkTriggers(on: unknown, scope: Scope, registries: FlowRegistries): void {
  if (on === undefined) {
    scope.warn('no-trigger', 'it has no trigger (on), so no message starts it');
    return;
  }
  if (!Array.isArray(on)) scope.wrongType('on', 'an array of triggers', on, 'Write on: [{ message: ["…"] }]');
  if (on.length === 0) scope.at('on').warn('no-trigger', 'its trigger list (on) is empty, so no message starts it');
  on.forEach((trigger, index) => {
    const at: Scope = scope.child(`${scope.where}, trigger at index ${index}`, 'on', index);
    if (!isPlainObject(trigger)) {
      at.fail('invalid-type', `a trigger must be an object, got ${describeValue(trigger)}`, 'Write { message: ["…"] }, or { message: [] } for a catch-all');
    }
    const kinds = TRIGGER_KINDS.filter((kind) => trigger[kind] !== undefined);
    if (kinds.length !== 1) {
      at.fail(
        'invalid-trigger',
        kinds.length === 0 ? 'it says neither message, mention, event nor silence' : `it mixes ${kinds.join(' and ')}`,
        'Write one trigger per kind: { message: [...] }, { mention: [...] }, { event: "…" } or { silence: "2h" }',
      );
    }
    checkTrigger(kinds[0], trigger, at, registries);
    checkRepeat(trigger.repeat, at);
    for (const key of Object.keys(trigger)) {
      if (!TRIGGER_KEYS.has(key)) at.at(key).warn('unknown-key', `${quote(key)} is not a trigger property and is ignored`);
    }
  });
}

function checkTrigger(kind: (typeof TRIGGER_KINDS)[number], trigger: Record<string, unknown>, at: Scope, registries: FlowRegistries): void {
  const misplaced = (key: string, owner: string) => {
    if (trigger[key] !== undefined) at.at(key).fail('invalid-trigger', `${key} belongs to ${owner} triggers`, `Remove ${key}`);
  };
  if (kind !== 'mention') misplaced('extract', 'mention');
  if (kind !== 'event') misplaced('after', 'event');
  if (kind === 'message') return checkPhrases(trigger.message, at);
  if (kind === 'mention') {
    checkPhrases(trigger.mention, at, 'mention');
    if ((trigger.mention as unknown[]).length === 0) {
      at.at('mention').fail('empty-phrase', 'a mention trigger needs at least one phrase', 'List what the message must mention, such as ["meu e-mail"]');
    }
    if (trigger.extract !== undefined) checkCollect(trigger.extract, at, registries, 'extract');
    return;
  }
  if (kind === 'event') {
    if (!isNonEmptyString(trigger.event)) at.wrongType('event', 'a non-empty event name', trigger.event);
    if (trigger.after !== undefined) checkDuration(trigger.after, at, 'after');
    return;
  }
  checkDuration(trigger.silence, at, 'silence');
}

function checkRepeat(repeat: unknown, at: Scope): void {
  if (repeat === undefined || repeat === 'once' || repeat === 'always') return;
  if (isPlainObject(repeat) && Object.keys(repeat).length === 1 && repeat.cooldown !== undefined) {
    checkDuration(repeat.cooldown, at.at('repeat'), 'cooldown');
    return;
  }
  at.wrongType('repeat', '"once", "always" or { cooldown: "<duration>" }', repeat);
}

function checkPhrases(message: unknown, at: Scope, key = 'message'): void {
  if (!Array.isArray(message)) {
    at.wrongType(key, 'an array of phrases', message, 'Write message: ["quero reservar"], or message: [] for a catch-all');
  }
  message.forEach((phrase, index) => {
    if (typeof phrase !== 'string') at.at(key).wrongType(index, 'a string', phrase, 'Write each phrase as a string');
    if (!PHRASE_HAS_TEXT.test(phrase)) {
      at.at(key, index).fail(
        'empty-phrase',
        `phrase ${index} (${quote(phrase)}) has no text`,
        'Write the phrase, or remove it ("!" alone excludes nothing)',
      );
    }
  });
  // `message: []` is the catch-all; a list of exclusions only would match nothing at all.
  if (message.length > 0 && message.every((phrase: string) => EXCLUSION.test(phrase))) {
    at.at(key).fail(
      'only-exclusions',
      'every phrase is an exclusion ("!"), so no message can match',
      'Add at least one phrase without "!", or use message: [] for a catch-all',
    );
  }
}

/** Checks one step and returns its id. */
function checkStep(step: unknown, index: number, flow: Scope, registries: FlowRegistries): string {
  const fallback: Scope = flow.child(`${flow.where}, step at index ${index}`, 'steps', index);
  if (!isPlainObject(step)) {
    fallback.fail('invalid-type', `a step must be an object, got ${describeValue(step)}`, 'Write the step as { id, prompt }, { id, collect: [...] } or { id, say }');
  }
  if (step.id === undefined || step.id === '') {
    fallback.at('id').fail('missing-id', 'it has no id', 'Give the step a non-empty string id, unique in its flow');
  }
  if (!isNonEmptyString(step.id)) fallback.wrongType('id', 'a non-empty string', step.id, 'Give the step a non-empty string id, unique in its flow');
  const scope: Scope = flow.child(stepWhere(flow, step.id, index), 'steps', index);
  if (step.id === END_STEP) scope.at('id').fail('reserved-step-id', `${quote(END_STEP)} is reserved for then: ${quote(END_STEP)}`, 'Rename the step');
  if (step.then !== undefined && !isNonEmptyString(step.then) && !isPlainObject(step.then)) scope.wrongType('then', `a step id, ${quote(END_STEP)} or { flow }`, step.then);

  const does = STEP_ACTIONS.filter((key) => step[key] !== undefined);
  if (does.length > 1) scope.at(does[1]).fail('mixed-step', `it does two things: ${does[0]} and ${does[1]}`, 'Split it into two steps');
  const kind = (does[0] as (typeof STEP_ACTIONS)[number] | undefined) ?? 'talk';
  for (const [key, owner] of Object.entries(KIND_OPTIONS)) {
    if (step[key] !== undefined && !owner.split(' or ').includes(kind)) {
      scope.at(key).fail('mixed-step', `${key} belongs to ${owner} steps, and this is a ${kind} step`, `Remove ${key}`);
    }
  }
  if (kind === 'say') checkSayStep(step, scope);
  else if (kind === 'talk') checkTalkStep(step, scope, registries);
  else {
    for (const key of ['prompt', 'collect', ...TALK_OPTIONS]) {
      if (step[key] !== undefined) scope.at(key).fail('mixed-step', `a ${kind} step takes no ${key}`, `Remove ${key}, or move it to a talk step`);
    }
    if (kind === 'do') checkDoStep(step, scope, registries);
    else if (kind === 'if') checkPredicate(step.if, scope.at('if'), registries);
    else checkWaitStep(step, scope);
  }

  for (const key of Object.keys(step)) {
    if (!STEP_KEYS.has(key)) scope.at(key).warn('unknown-key', `${quote(key)} is not a step property and is ignored`);
  }
  return step.id;
}

function checkSayStep(step: Record<string, unknown>, scope: Scope): void {
  for (const key of ['prompt', 'collect']) {
    if (step[key] !== undefined) scope.at(key).fail('mixed-step', `it does two things: say and ${key}`, 'Split it into a say step and a talk step');
  }
  for (const key of TALK_OPTIONS) {
    if (step[key] !== undefined) {
      scope.at(key).fail('mixed-step', `a say step sends its text word for word and takes no ${key}`, `Remove ${key}, or make it a talk step with a prompt`);
    }
  }
  if (!isNonEmptyString(step.say)) scope.wrongType('say', 'a non-empty string', step.say, 'Write the text to send in say');
}

function checkTalkStep(step: Record<string, unknown>, scope: Scope, registries: FlowRegistries): void {
  if (step.prompt !== undefined && !isNonEmptyString(step.prompt)) scope.wrongType('prompt', 'a non-empty string', step.prompt);
  const collect = checkCollect(step.collect, scope, registries);
  if (step.prompt === undefined && collect.length === 0) {
    scope.fail('empty-step', 'it does nothing: it has no prompt, collect or say', 'Add a prompt, a collect list or a say text, or remove the step');
  }
  if (step.tools !== undefined) checkToolList(step.tools, scope.at('tools'), 'tools', registries.tools);
  checkAsk(step.ask, collect, scope, registries);
  if (step.question !== undefined) {
    if (!isNonEmptyString(step.question)) scope.wrongType('question', 'a non-empty string', step.question);
    if (collect.length === 0) {
      scope.at('question').fail('question-without-collect', 'it has a question but collects nothing', 'Add the fields the question asks for to collect, or use prompt instead');
    }
  }
  if (step.maxAsks !== undefined) {
    if (typeof step.maxAsks !== 'number' || !Number.isInteger(step.maxAsks) || step.maxAsks < 1) {
      scope.wrongType('maxAsks', 'a positive integer', step.maxAsks, 'Set maxAsks to 1 or more, or remove it (default 3)');
    }
    if (collect.length === 0) scope.at('maxAsks').warn('unused-option', 'maxAsks has no effect on a step that collects nothing');
  }
}

function checkCollect(collect: unknown, scope: Scope, registries: FlowRegistries, key = 'collect'): string[] {
  if (collect === undefined) return [];
  if (!Array.isArray(collect)) scope.wrongType(key, 'an array of field slugs', collect);
  const seen = new Set<string>();
  collect.forEach((slug, index) => {
    if (typeof slug !== 'string') scope.at(key).wrongType(index, 'a field slug', slug, `Write each entry of ${key} as a field slug`);
    if (!hasOwn(registries.fields, slug)) {
      scope.at(key, index).fail('unknown-field', `${key} names ${quote(slug)}, which is not a field of the agent`, fieldFix(slug, registries));
    }
    if (seen.has(slug)) scope.at(key, index).warn('duplicate-collect', `${key} lists ${quote(slug)} twice`);
    seen.add(slug);
  });
  return collect as string[];
}

function checkAsk(ask: unknown, collect: string[], scope: Scope, registries: FlowRegistries): void {
  if (ask === undefined) return;
  if (!isPlainObject(ask)) scope.wrongType('ask', 'an object of field slug → text', ask);
  for (const [slug, text] of Object.entries(ask)) {
    if (!hasOwn(registries.fields, slug)) {
      scope.at('ask', slug).fail('unknown-field', `ask names ${quote(slug)}, which is not a field of the agent`, fieldFix(slug, registries));
    }
    if (!isNonEmptyString(text)) scope.at('ask').wrongType(slug, 'a non-empty string', text);
    if (!collect.includes(slug)) {
      scope.at('ask', slug).warn('ask-not-collected', `ask has text for ${quote(slug)}, which this step does not collect, so it is never used`);
    }
  }
}

function checkDuplicateIds(ids: string[], flow: Scope): void {
  const first = new Map<string, number>();
  ids.forEach((id, index) => {
    const earlier = first.get(id);
    if (earlier !== undefined) {
      flow
        .child(stepWhere(flow, id, index), 'steps', index, 'id')
        .fail('duplicate-step-id', `the id ${quote(id)} is already used by the step at index ${earlier}`, 'Give each step of a flow its own id');
    }
    first.set(id, index);
  });
}

/** Every place a step can go: then, else, onFail and its branches. */
function checkTargets(step: Record<string, unknown>, scope: Scope, ids: string[], registries: FlowRegistries): void {
  for (const key of ['then', 'else', 'onFail']) if (step[key] !== undefined) checkTarget(step[key], scope, key, ids, registries);
  if (step.branches !== undefined) checkBranches(step.branches, scope, ids, registries);
}

/** Step ids a step can go to; `undefined` stands for "the next step". */
function targetsOf(step: Record<string, unknown>): (string | undefined)[] {
  const out: (string | undefined)[] = [typeof step.then === 'string' || step.then === undefined ? (step.then as string | undefined) : END_STEP];
  for (const key of ['else', 'onFail']) if (typeof step[key] === 'string') out.push(step[key] as string);
  // A do step whose action fails without onFail goes to then; a wait's else defaults to the end.
  for (const branch of (step.branches as { then?: unknown }[] | undefined) ?? []) if (typeof branch.then === 'string') out.push(branch.then);
  return out;
}

/** Steps no path from the first step reaches (following every target, else the next step). */
function warnUnreachable(steps: Record<string, unknown>[], ids: string[], flow: Scope): void {
  const reached = new Set<number>();
  let frontier = [0];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const index of frontier) {
      if (reached.has(index) || index >= steps.length) continue;
      reached.add(index);
      for (const then of targetsOf(steps[index])) {
        if (then === undefined) next.push(index + 1);
        else if (then !== END_STEP) next.push(ids.indexOf(then));
      }
    }
    frontier = next;
  }
  ids.forEach((id, index) => {
    if (!reached.has(index)) flow.child(stepWhere(flow, id, index), 'steps', index).warn('unreachable-step', 'no step leads to it, so it never runs');
  });
}

function stepWhere(flow: Scope, id: unknown, index: number): string {
  return isNonEmptyString(id) ? `${flow.where}, step ${quote(id)}` : `${flow.where}, step at index ${index}`;
}

function optionalText(object: Record<string, unknown>, key: string, scope: Scope): void {
  if (object[key] !== undefined && typeof object[key] !== 'string') scope.wrongType(key, 'a string', object[key]);
}

function fieldFix(slug: string, registries: FlowRegistries): string {
  const known = Object.keys(registries.fields);
  return known.length === 0
    ? `Declare ${quote(slug)} in the agent's fields (it has none yet)`
    : `Declare ${quote(slug)} in the agent's fields, or use one of ${listNames(known)}`;
}
