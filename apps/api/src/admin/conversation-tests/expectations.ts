import type { AgentRunTurn } from '@switchboard/queue';
import { z } from 'zod';

// What a conversation test checks after each customer message (docs/conversation-tests.md).

const argsSchema = z.record(z.string(), z.unknown());

/** One expectation of a turn; `name` labels it in results (a default label is generated). */
export const expectationSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('reply-contains'), text: z.string().min(1), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('reply-not-contains'), text: z.string().min(1), name: z.string().optional() }),
  z.strictObject({
    kind: z.literal('reply-matches'),
    pattern: z.string().min(1).refine(isRegExp, 'not a valid regular expression'),
    flags: z.string().regex(/^[imsu]*$/).optional(),
    name: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal('tool-called'), tool: z.string().min(1), args: argsSchema.optional(), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('tool-not-called'), tool: z.string().min(1), args: argsSchema.optional(), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('field-equals'), field: z.string().min(1), value: z.unknown(), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('at-step'), flow: z.string().min(1), step: z.string().min(1).optional(), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('no-failed-outcome'), name: z.string().optional() }),
  z.strictObject({ kind: z.literal('max-model-calls'), max: z.number().int().min(0), name: z.string().optional() }),
]);
export type Expectation = z.infer<typeof expectationSchema>;

export const testTurnSchema = z.strictObject({
  message: z.string().trim().min(1).max(4000),
  expect: z.array(expectationSchema).max(50).default([]),
});
export type TestTurn = z.infer<typeof testTurnSchema>;

export interface ExpectationResult {
  name: string;
  kind: Expectation['kind'];
  passed: boolean;
  /** What the run did instead, when it failed (or what it matched). */
  detail: string;
}

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const show = (v: unknown) => JSON.stringify(v);

/** The label results use: the expectation's `name`, else a sentence built from it. */
export function expectationName(e: Expectation): string {
  if (e.name) return e.name;
  switch (e.kind) {
    case 'reply-contains':
      return `reply contains ${show(e.text)}`;
    case 'reply-not-contains':
      return `reply does not contain ${show(e.text)}`;
    case 'reply-matches':
      return `reply matches /${e.pattern}/${e.flags ?? ''}`;
    case 'tool-called':
      return `tool ${e.tool} called${e.args ? ` with ${show(e.args)}` : ''}`;
    case 'tool-not-called':
      return `tool ${e.tool} not called${e.args ? ` with ${show(e.args)}` : ''}`;
    case 'field-equals':
      return `field ${e.field} = ${show(e.value)}`;
    case 'at-step':
      return `at ${e.flow}${e.step ? ` / ${e.step}` : ''}`;
    case 'no-failed-outcome':
      return 'no failed outcome';
    case 'max-model-calls':
      return `at most ${e.max} model calls`;
  }
}

/** True when every key of `want` is in `got` with an equal value (objects compared the same way, deeply). */
export function containsArgs(got: unknown, want: unknown): boolean {
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return false;
    return Object.entries(want).every(([k, v]) => containsArgs((got as Record<string, unknown>)[k], v));
  }
  return show(got) === show(want);
}

interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  gate: string;
}

function toolCalls(turn: AgentRunTurn): ToolCall[] {
  return (turn.trace as { type?: string }[]).filter((t): t is ToolCall & { type: 'tool' } => t.type === 'tool');
}

/** Checks one turn of a run against its expectations. */
export function evaluateTurn(turn: AgentRunTurn, expectations: readonly Expectation[]): ExpectationResult[] {
  const reply = turn.replies.map((r) => r.text).join('\n');
  return expectations.map((e) => {
    const name = expectationName(e);
    const result = (passed: boolean, detail: string): ExpectationResult => ({ name, kind: e.kind, passed, detail });
    switch (e.kind) {
      case 'reply-contains':
        return result(reply.includes(e.text), `reply: ${show(reply)}`);
      case 'reply-not-contains':
        return result(!reply.includes(e.text), `reply: ${show(reply)}`);
      case 'reply-matches':
        return result(new RegExp(e.pattern, e.flags).test(reply), `reply: ${show(reply)}`);
      case 'tool-called':
      case 'tool-not-called': {
        const calls = toolCalls(turn).filter((c) => c.tool === e.tool && c.gate === 'ok');
        const hit = calls.some((c) => !e.args || containsArgs(c.arguments, e.args));
        const seen = toolCalls(turn).map((c) => `${c.tool}(${show(c.arguments)}) ${c.gate}`);
        const detail = seen.length ? `tool calls: ${seen.join('; ')}` : 'no tool was called';
        return result(e.kind === 'tool-called' ? hit : !hit, detail);
      }
      case 'field-equals': {
        const value = turn.fields[e.field];
        return result(show(value) === show(e.value), value === undefined ? `${e.field} is not set` : `${e.field} = ${show(value)}`);
      }
      case 'at-step': {
        const at = turn.at;
        const passed = !!at && at.flow === e.flow && (!e.step || at.step === e.step);
        return result(passed, at ? `at ${at.flow} / ${at.step}` : 'no flow is running');
      }
      case 'no-failed-outcome': {
        const failed = turn.outcomes.filter((o) => o.status === 'failed');
        return result(failed.length === 0, failed.length ? `failed: ${failed.map((o) => `${o.code ?? o.kind}${o.message ? ` (${o.message})` : ''}`).join('; ')}` : 'no outcome failed');
      }
      case 'max-model-calls':
        return result(turn.llmCalls <= e.max, `${turn.llmCalls} model calls`);
    }
  });
}
