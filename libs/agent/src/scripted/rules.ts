// The JSON form of a scripted model: rules a platform can store in an agent's config for the
// offline demo, checked once so a bad rule fails when the provider is built, not mid-turn.
import type { ProviderErrorKind, Usage } from '../provider';

export interface ScriptToolCall {
  name: string;
  /** Values may hold templates (`{{known.cidade}}`); a string is sent as raw arguments. */
  arguments?: Record<string, unknown> | string;
}

export interface ScriptFailure {
  kind: ProviderErrorKind;
  message?: string;
  retryAfterMs?: number;
  /** ISO time a quota resets. */
  resetAt?: string;
}

export interface ScriptRule {
  /** Regex source tested against the last user message; absent matches any message. */
  match?: string;
  /** Regex flags; default `iu`. */
  flags?: string;
  /** Which call the rule answers; absent answers both. */
  call?: 'understand' | 'speak';
  /** Speak round (from 1) the rule answers; absent answers any. */
  round?: number;
  /** Speak only: every named tool is offered in this call. */
  offered?: string[];
  /** Speak only: the reply schema asks for every named field. */
  asks?: string[];
  /** Speak only: the named tool already answered in this speak call. */
  afterTool?: string;
  /** How many times the rule may answer (per provider); absent is unlimited. */
  times?: number;
  /**
   * The rule answers only within this many ms of the provider's first call: an outage that ends
   * with time, as a real one does, however few calls come meanwhile (`times` ends it after calls).
   */
  withinMs?: number;
  /** Probability (0..1) that the rule answers a call it matches, drawn per call: a flaky model for chaos tests. */
  chance?: number;

  /** Understand: flow scores, merged over every matching understand rule. */
  flows?: Record<string, number>;
  /** Understand: yes/no answers to branch questions, by `${stepId}:${index}`; merged like flows. */
  branches?: Record<string, boolean>;
  /** Understand: field values; speak: envelope values. Templates allowed. */
  fields?: Record<string, unknown>;
  /** Speak: tool calls to make. */
  toolCalls?: ScriptToolCall[];
  /** Speak: the reply text. Templates allowed. */
  reply?: string;
  /** Fail the call with a ProviderError instead of answering. */
  fail?: ScriptFailure;
  latencyMs?: number;
  usage?: Usage;
}

export interface ScriptJson {
  rules: ScriptRule[];
  /** Latency of every call unless a rule says otherwise. */
  latencyMs?: number;
  model?: string;
  /** Seeds the draws of `chance` rules so a run can be replayed; absent draws from Math.random. */
  seed?: number;
}

const ERROR_KINDS: readonly ProviderErrorKind[] = ['overloaded', 'rate-limited', 'timeout', 'network', 'empty', 'quota', 'auth', 'context', 'invalid', 'unknown'];
const RULE_KEYS = new Set(['match', 'flags', 'call', 'round', 'offered', 'asks', 'afterTool', 'times', 'withinMs', 'chance', 'flows', 'branches', 'fields', 'toolCalls', 'reply', 'fail', 'latencyMs', 'usage']);

export class ScriptError extends Error {
  readonly code = 'invalid-script';
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`[ScriptError] ${path}: ${what}.`);
    this.name = 'ScriptError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

/** Checks untrusted JSON (an agent's stored config) and returns it typed; throws ScriptError naming the path. */
export function parseScript(json: unknown): ScriptJson {
  const root = Array.isArray(json) ? { rules: json } : json;
  if (!isObject(root)) throw new ScriptError('script', 'must be an object { rules: [...] } or an array of rules');
  if (!Array.isArray(root.rules)) throw new ScriptError('script.rules', 'must be an array of rules');
  if (root.latencyMs !== undefined && !(typeof root.latencyMs === 'number' && root.latencyMs >= 0)) {
    throw new ScriptError('script.latencyMs', 'must be a number of milliseconds, 0 or more');
  }
  if (root.model !== undefined && typeof root.model !== 'string') throw new ScriptError('script.model', 'must be a string');
  if (root.seed !== undefined && !Number.isSafeInteger(root.seed)) throw new ScriptError('script.seed', 'must be an integer');
  root.rules.forEach((rule, i) => checkRule(rule, `script.rules[${i}]`));
  return root as unknown as ScriptJson;
}

function checkRule(rule: unknown, at: string): void {
  if (!isObject(rule)) throw new ScriptError(at, 'must be an object');
  for (const key of Object.keys(rule)) if (!RULE_KEYS.has(key)) throw new ScriptError(`${at}.${key}`, 'is not a rule key');
  if (rule.match !== undefined) {
    if (typeof rule.match !== 'string') throw new ScriptError(`${at}.match`, 'must be a regex source string');
    try {
      new RegExp(rule.match, typeof rule.flags === 'string' ? rule.flags : 'iu');
    } catch (err) {
      throw new ScriptError(`${at}.match`, `is not a valid regex (${(err as Error).message})`);
    }
  }
  if (rule.flags !== undefined && typeof rule.flags !== 'string') throw new ScriptError(`${at}.flags`, 'must be a string');
  if (rule.call !== undefined && rule.call !== 'understand' && rule.call !== 'speak') throw new ScriptError(`${at}.call`, 'must be "understand" or "speak"');
  for (const key of ['round', 'times', 'withinMs', 'latencyMs'] as const) {
    const v = rule[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) throw new ScriptError(`${at}.${key}`, 'must be a number, 0 or more');
  }
  if (rule.chance !== undefined && !(typeof rule.chance === 'number' && rule.chance >= 0 && rule.chance <= 1)) {
    throw new ScriptError(`${at}.chance`, 'must be a probability from 0 to 1');
  }
  for (const key of ['offered', 'asks'] as const) {
    if (rule[key] !== undefined && !isStringArray(rule[key])) throw new ScriptError(`${at}.${key}`, 'must be an array of strings');
  }
  if (rule.afterTool !== undefined && typeof rule.afterTool !== 'string') throw new ScriptError(`${at}.afterTool`, 'must be a tool id');
  if (rule.flows !== undefined && !(isObject(rule.flows) && Object.values(rule.flows).every((n) => typeof n === 'number'))) {
    throw new ScriptError(`${at}.flows`, 'must map flow ids to scores (numbers 0-100)');
  }
  if (rule.branches !== undefined && !(isObject(rule.branches) && Object.values(rule.branches).every((b) => typeof b === 'boolean'))) {
    throw new ScriptError(`${at}.branches`, 'must map branch question ids ("<step>:<index>") to true or false');
  }
  if (rule.fields !== undefined && !isObject(rule.fields)) throw new ScriptError(`${at}.fields`, 'must map field slugs to values');
  if (rule.reply !== undefined && typeof rule.reply !== 'string') throw new ScriptError(`${at}.reply`, 'must be a string');
  if (rule.toolCalls !== undefined) {
    if (!Array.isArray(rule.toolCalls)) throw new ScriptError(`${at}.toolCalls`, 'must be an array of { name, arguments? }');
    rule.toolCalls.forEach((call, k) => {
      if (!isObject(call) || typeof call.name !== 'string') throw new ScriptError(`${at}.toolCalls[${k}]`, 'must be { name: string, arguments? }');
      if (call.arguments !== undefined && typeof call.arguments !== 'string' && !isObject(call.arguments)) {
        throw new ScriptError(`${at}.toolCalls[${k}].arguments`, 'must be an object or a JSON string');
      }
    });
  }
  if (rule.fail !== undefined) {
    if (!isObject(rule.fail) || !ERROR_KINDS.includes(rule.fail.kind as ProviderErrorKind)) {
      throw new ScriptError(`${at}.fail.kind`, `must be one of ${ERROR_KINDS.join(', ')}`);
    }
    if (rule.fail.resetAt !== undefined && Number.isNaN(Date.parse(String(rule.fail.resetAt)))) {
      throw new ScriptError(`${at}.fail.resetAt`, 'must be an ISO time');
    }
  }
  if (rule.usage !== undefined && !(isObject(rule.usage) && typeof rule.usage.inputTokens === 'number' && typeof rule.usage.outputTokens === 'number')) {
    throw new ScriptError(`${at}.usage`, 'must be { inputTokens, outputTokens, cachedInputTokens? }');
  }
}
