// A deterministic model for tests and the offline demo (engine.md §4). It answers from JSON
// rules (see rules.ts) or from a function, records every request it receives, and can add
// latency or fail a call with any ProviderError kind.
import {
  type AiProvider,
  type HistoryItem,
  type ModelReply,
  type ModelRequest,
  ProviderError,
  type StreamChunk,
  type Usage,
} from '../provider';
import { readKnownFields } from '../turn/prompts';
import { parseScript, type ScriptJson, type ScriptRule } from './rules';
import { seededRandom } from './seeded-random';
import { render, renderText, type TemplateScope } from './template';

/** What a function script returns: a reply (missing parts default), or undefined to fall through to the rules. */
export type ScriptReply = Partial<ModelReply> & { latencyMs?: number };
export type ScriptFn = (req: ModelRequest, index: number) => ScriptReply | undefined | Promise<ScriptReply | undefined>;

export interface ScriptedProviderOptions {
  rules?: ScriptRule[] | ScriptJson;
  /** Tried before the rules; throw a ProviderError from it to fail a call. */
  script?: ScriptFn;
  latencyMs?: number;
  model?: string;
  /** Keep only the last N requests (a long-lived demo provider must not grow without end). Default: all. */
  recordLimit?: number;
}

/** What `fromJson` keeps: enough to inspect a demo, bounded for a long-running worker. */
export const JSON_RECORD_LIMIT = 100;

export class ScriptedProvider implements AiProvider {
  readonly name = 'scripted';
  readonly model: string;
  /** Every request received, oldest first (without its AbortSignal). */
  readonly requests: ModelRequest[] = [];
  private readonly rules: ScriptRule[];
  private readonly script?: ScriptFn;
  private readonly latencyMs: number;
  private readonly recordLimit: number;
  private readonly fired = new Map<ScriptRule, number>();
  private readonly random: () => number;
  /** When the first call came (the clock of `withinMs` rules). */
  private firstCallAt: number | undefined;

  /** `new ScriptedProvider({ rules })` for JSON rules, `new ScriptedProvider(fn)` for a function script. */
  constructor(options: ScriptedProviderOptions | ScriptFn = {}) {
    const opts: ScriptedProviderOptions = typeof options === 'function' ? { script: options } : options;
    const json = opts.rules === undefined ? { rules: [] } : parseScript(opts.rules);
    this.rules = json.rules;
    this.script = opts.script;
    this.latencyMs = opts.latencyMs ?? json.latencyMs ?? 0;
    this.model = opts.model ?? json.model ?? 'scripted';
    this.recordLimit = opts.recordLimit ?? Number.POSITIVE_INFINITY;
    this.random = json.seed === undefined ? Math.random : seededRandom(json.seed);
  }

  /** Builds one from stored JSON (an agent config); throws ScriptError on a bad rule. */
  static fromJson(json: unknown, options: { recordLimit?: number } = {}): ScriptedProvider {
    return new ScriptedProvider({ rules: parseScript(json), recordLimit: options.recordLimit ?? JSON_RECORD_LIMIT });
  }

  /** Requests of one call kind, for assertions. */
  calls(kind: 'understand' | 'speak'): ModelRequest[] {
    return this.requests.filter((r) => r.call === kind);
  }

  async generate(req: ModelRequest): Promise<ModelReply> {
    const index = this.requests.length;
    this.firstCallAt ??= Date.now();
    const { signal: _signal, ...recorded } = req;
    this.requests.push(structuredClone(recorded));
    if (this.requests.length > this.recordLimit) this.requests.splice(0, this.requests.length - this.recordLimit);

    if (this.script) {
      const scripted = await this.script(req, index);
      if (scripted !== undefined) {
        await sleep(scripted.latencyMs ?? this.latencyMs);
        const { latencyMs: _latency, ...reply } = scripted;
        return { text: null, toolCalls: [], ...reply };
      }
    }
    return req.call === 'understand' ? this.understand(req) : this.speak(req);
  }

  async *stream(req: ModelRequest): AsyncIterable<StreamChunk> {
    const reply = await this.generate(req);
    // Word by word, so a streaming host sees more than one chunk.
    for (const piece of (reply.text ?? '').match(/\S+\s*|\s+/g) ?? []) yield { delta: piece };
    yield { done: true, reply };
  }

  private async understand(req: ModelRequest): Promise<ModelReply> {
    const scope = scopeOf(req);
    const flows: Record<string, number> = {};
    const fields: Record<string, unknown> = {};
    const branches: Record<string, boolean> = {};
    let latency = this.latencyMs;
    let usage: Usage | undefined;
    for (const rule of this.rules) {
      const groups = this.matches(rule, req);
      if (!groups) continue;
      this.fire(rule);
      if (rule.latencyMs !== undefined) latency = rule.latencyMs;
      if (rule.fail) {
        await sleep(latency);
        throw failure(rule);
      }
      Object.assign(flows, rule.flows ?? {});
      Object.assign(branches, rule.branches ?? {});
      Object.assign(fields, render(rule.fields ?? {}, { ...scope, match: groups }));
      usage = rule.usage ?? usage;
    }
    await sleep(latency);
    // Branch answers only when the request asked questions, so older replies stay as they were.
    const asked = JSON.stringify(req.schema ?? {}).includes('"branches"');
    const structured = { flows, fields, ...(asked ? { branches } : {}) };
    const text = JSON.stringify(structured);
    return { text, structured, toolCalls: [], usage: usage ?? estimate(req, text) };
  }

  private async speak(req: ModelRequest): Promise<ModelReply> {
    let rule: ScriptRule | undefined;
    let groups: Record<string, string> | undefined;
    for (const r of this.rules) {
      groups = this.matches(r, req);
      if (groups) {
        rule = r;
        break;
      }
    }
    if (!rule || !groups) {
      await sleep(this.latencyMs);
      throw new ProviderError({
        kind: 'invalid',
        message: `ScriptedProvider: no rule answers speak round ${req.round} for ${JSON.stringify(scopeOf(req).message ?? '')}`,
      });
    }
    this.fire(rule);
    await sleep(rule.latencyMs ?? this.latencyMs);
    if (rule.fail) throw failure(rule);

    const scope = { ...scopeOf(req), match: groups };
    const text = rule.reply !== undefined ? renderText(rule.reply, scope) : '';
    const toolCalls = (rule.toolCalls ?? []).map((call) => ({
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : (render(call.arguments ?? {}, scope) as Record<string, unknown>),
    }));
    const reply: ModelReply = { text: text || null, toolCalls, usage: rule.usage ?? estimate(req, text) };
    if (req.schema) reply.structured = { message: text, ...(render(rule.fields ?? {}, scope) as Record<string, unknown>) };
    return reply;
  }

  /** The rule's regex groups when it answers this request, else undefined. */
  private matches(rule: ScriptRule, req: ModelRequest): Record<string, string> | undefined {
    if (rule.call !== undefined && rule.call !== req.call) return undefined;
    if (rule.times !== undefined && (this.fired.get(rule) ?? 0) >= rule.times) return undefined;
    if (rule.withinMs !== undefined && Date.now() - this.firstCallAt! >= rule.withinMs) return undefined;
    if (req.call === 'speak') {
      if (rule.round !== undefined && rule.round !== req.round) return undefined;
      const offered = new Set(req.tools.map((t) => t.name));
      if (rule.offered && !rule.offered.every((name) => offered.has(name))) return undefined;
      const asked = schemaFields(req);
      if (rule.asks && !rule.asks.every((slug) => asked.includes(slug))) return undefined;
      if (rule.afterTool !== undefined && !toolResults(req.history).some((item) => item.name === rule.afterTool)) return undefined;
    } else if (rule.reply !== undefined || rule.toolCalls !== undefined) {
      // A rule written for speaking has nothing to say to an understand call.
      if (rule.call === undefined && rule.flows === undefined && rule.fields === undefined) return undefined;
    }
    if (rule.match === undefined) return this.drawn(rule) ? {} : undefined;
    const found = new RegExp(rule.match, rule.flags ?? 'iu').exec(lastUserMessage(req.history) ?? '');
    if (!found) return undefined;
    const groups: Record<string, string> = { ...(found.groups ?? {}) };
    found.forEach((g, i) => (groups[String(i)] = g ?? ''));
    return this.drawn(rule) ? groups : undefined;
  }

  /** A `chance` rule answers only when the draw falls under its probability; others always do. */
  private drawn(rule: ScriptRule): boolean {
    return rule.chance === undefined || this.random() < rule.chance;
  }

  private fire(rule: ScriptRule): void {
    this.fired.set(rule, (this.fired.get(rule) ?? 0) + 1);
  }
}

function failure(rule: ScriptRule): ProviderError {
  const fail = rule.fail!;
  return new ProviderError({
    kind: fail.kind,
    message: fail.message ?? `scripted ${fail.kind} failure`,
    ...(fail.retryAfterMs !== undefined ? { retryAfterMs: fail.retryAfterMs } : {}),
    ...(fail.resetAt !== undefined ? { resetAt: new Date(fail.resetAt) } : {}),
  });
}

function lastUserMessage(history: readonly HistoryItem[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const item = history[i];
    if (item.role === 'user') return item.content;
  }
  return undefined;
}

/** Tool items after the last user message: the results of this speak call's earlier rounds. */
function toolResults(history: readonly HistoryItem[]): Extract<HistoryItem, { role: 'tool' }>[] {
  const out: Extract<HistoryItem, { role: 'tool' }>[] = [];
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const item = history[i];
    if (item.role === 'user') break;
    if (item.role === 'tool') out.unshift(item);
  }
  return out;
}

function schemaFields(req: ModelRequest): string[] {
  const props = (req.schema?.schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(props).filter((k) => k !== 'message');
}

function parsed(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function scopeOf(req: ModelRequest): TemplateScope {
  const results = toolResults(req.history);
  const tool: Record<string, unknown> = {};
  for (const item of results) tool[item.name] = parsed(item.content);
  const last = results[results.length - 1];
  return {
    message: lastUserMessage(req.history),
    known: readKnownFields(req.context ?? req.system),
    tool,
    lastTool: last ? parsed(last.content) : undefined,
  };
}

/** A stable token estimate (4 chars a token), so usage sums are testable. */
function estimate(req: ModelRequest, text: string): Usage {
  const chars = req.system.length + (req.context?.length ?? 0) + req.history.reduce((n, item) => n + (item.content?.length ?? 0), 0);
  return { inputTokens: Math.ceil(chars / 4), outputTokens: Math.ceil(text.length / 4) };
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
