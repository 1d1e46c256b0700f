import type { TraceEntry, OutcomeLine } from '../turns/turn-trace';

// The shapes of POST /v1/admin/agents/:id/playground/turns and the tests routes.

/** `"draft"` (saved), `"unsaved"` (the editor's form), or a version number. */
export type RunTarget = 'draft' | 'unsaved' | number;

export interface PlaygroundTurn {
  index: number;
  message: string;
  replies: { key: string; text: string; kind: string }[];
  trace: TraceEntry[];
  outcomes: OutcomeLine[];
  llmCalls: number;
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  fields: Record<string, unknown>;
  at: { flow: string; step: string } | null;
  totalMs: number;
  target: string;
  version: number | null;
  provider: { name: string; model: string };
  error?: { code: string; message: string };
}

export interface PlaygroundAnswer {
  playgroundId: string;
  turn: PlaygroundTurn;
}

export type Expectation =
  | { kind: 'reply-contains' | 'reply-not-contains'; text: string; name?: string }
  | { kind: 'reply-matches'; pattern: string; flags?: string; name?: string }
  | { kind: 'tool-called' | 'tool-not-called'; tool: string; args?: Record<string, unknown>; name?: string }
  | { kind: 'field-equals'; field: string; value: unknown; name?: string }
  | { kind: 'at-step'; flow: string; step?: string; name?: string }
  | { kind: 'no-failed-outcome'; name?: string }
  | { kind: 'max-model-calls'; max: number; name?: string };

export interface ExpectationResult {
  name: string;
  kind: string;
  passed: boolean;
  detail: string;
}

export interface TestRunResult {
  testId: string;
  name: string;
  mode: 'replay' | 'live';
  target: string;
  passed: boolean;
  turns: { index: number; message: string; replies: string[]; passed: boolean; expectations: ExpectationResult[]; error?: { code: string; message: string } }[];
  diverged?: { turn: number; call: number; message: string };
  error?: { code: string; message: string };
  ranAt: string;
}

export interface ConversationTest {
  id: string;
  name: string;
  source: 'playground' | 'session';
  recordedVersion: number | null;
  mode: 'replay' | 'live';
  turns: { message: string; expect: Expectation[] }[];
  lastRun: TestRunResult | null;
  lastPassingReplies: string[][] | null;
  recordedCalls: number;
}

/** The trace view's shape for a playground turn (no queue wait or commit: nothing was queued or stored as a Turn). */
export function asTurnDetail(turn: PlaygroundTurn) {
  let modelMs = 0;
  let toolsMs = 0;
  for (const e of turn.trace) {
    if (e.type === 'model') modelMs += e.ms;
    else toolsMs += e.ms;
  }
  return {
    id: `playground-${turn.index}`,
    llmCalls: turn.llmCalls,
    inputTokens: turn.usage.inputTokens,
    outputTokens: turn.usage.outputTokens,
    cachedInputTokens: turn.usage.cachedInputTokens,
    queueWaitMs: 0,
    modelMs: Math.round(modelMs),
    toolsMs: Math.round(toolsMs),
    commitMs: 0,
    totalMs: turn.totalMs,
    trace: turn.trace,
    outcomes: turn.outcomes.map((o) => ({ ...o, at: turn.target })),
  };
}
