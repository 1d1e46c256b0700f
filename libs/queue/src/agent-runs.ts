import type { JobsOptions } from 'bullmq';

// Console runs of an agent outside customer traffic (docs/conversation-tests.md): a playground
// turn, or a conversation test. The API sends them to a worker (which holds the tools, the
// provider keys and the outbound guard) and waits for the answer. Nothing here creates a
// channel, a key, a Session or a Turn row.

/** What a run builds: the saved draft, a published version, or a config the API already checked. */
export type AgentRunTarget = { kind: 'draft' } | { kind: 'version'; version: number } | { kind: 'config'; config: unknown };

/** One model reply as the provider gave it, with what the request looked like (to replay it). */
export interface RecordedCall {
  call: 'understand' | 'speak';
  round: number;
  /** Names of the tools the request offered. */
  tools: string[];
  /** The structured-output schema's name, when the request asked for one. */
  schema?: string;
  reply: {
    text: string | null;
    structured?: unknown;
    toolCalls: { name: string; arguments: Record<string, unknown> | string }[];
    usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number };
  };
}

/** Where a replay left the recording: the call had no recorded reply that fits it. */
export interface ReplayDivergence {
  /** 1-based turn and call within the turn. */
  turn: number;
  call: number;
  /** What the recording has at that place (absent when the recording ran out). */
  recorded?: { call: string; round: number; tools: string[]; schema?: string };
  actual: { call: string; round: number; tools: string[]; schema?: string };
  message: string;
}

/** What one turn of a run did, as the expectations read it. */
export interface AgentRunTurn {
  message: string;
  replies: { key: string; text: string; kind: string }[];
  /** The engine's trace: model calls (usage, timing) and tool calls (arguments, gate, result). */
  trace: unknown[];
  outcomes: { kind: string; status: string; code?: string; message?: string; stepId?: string; flowId?: string }[];
  llmCalls: number;
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  /** Field values after the turn. */
  fields: Record<string, unknown>;
  /** The flow and step the conversation is at after the turn (the first live run), or null. */
  at: { flow: string; step: string } | null;
  recording: RecordedCall[];
  totalMs: number;
  /** A turn the engine could not run (the agent did not build, a provider refused for good). */
  error?: { code: string; message: string };
}

export interface AgentRunJobData {
  tenantId: string;
  agentId: string;
  target: AgentRunTarget;
  /** The playground conversation's or the test's id: the tools' session id. */
  runId: string;
  /** `live`: the agent's own provider; `replay`: `recording`, turn by turn. */
  mode: 'live' | 'replay';
  /**
   * What the run is for: a live run's model usage is kept under this console line
   * (ConsoleUsageDaily), never as customer usage. Replayed runs call no model and record nothing.
   */
  purpose: 'playground' | 'conversation-test';
  /** The engine session to continue (a playground's state); null starts a new one. */
  state: unknown;
  /** The conversation before `messages`, as the engine's history ({ role, content }). */
  history: { role: 'user' | 'assistant'; content: string }[];
  messages: string[];
  /** Per message, the recorded calls (replay mode). */
  recording?: RecordedCall[][];
}

export type AgentRunResult =
  | {
      ok: true;
      /** The version that ran, null for a draft or an unsaved config. */
      version: number | null;
      provider: { name: string; model: string };
      turns: AgentRunTurn[];
      state: unknown;
      diverged?: ReplayDivergence;
    }
  | { ok: false; error: { code: string; message: string } };

/** One attempt: a console run is not retried behind the user's back; results are read at once. */
export const AGENT_RUN_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 300 },
  removeOnFail: { age: 300 },
} as const satisfies JobsOptions;
