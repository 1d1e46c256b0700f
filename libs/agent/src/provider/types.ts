// The provider contract of engine.md §4. Every model call the engine makes goes through it.

export type CallKind = 'understand' | 'speak';

export interface ToolCallRef {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type HistoryItem =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallRef[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

export type History = HistoryItem[];

export interface ToolDeclaration {
  name: string;
  description?: string;
  parameters?: object;
}

export interface ModelRequest {
  call: CallKind;
  /** Speak rounds count from 1; the understand call is round 0. */
  round: number;
  /**
   * What stays the same from turn to turn: on a speak call the agent's instructions and how to
   * reply, the same at every step. Providers send it first, beside the tools and the reply schema,
   * so it is a prefix the model's prompt cache can reuse (docs/cost.md, "Prompt caching").
   */
  system: string;
  history: HistoryItem[];
  /**
   * What changes from step to step and turn to turn (flow or idle instructions, the step's prompt,
   * the fields still to ask, the known values, the wrap-up order): providers send it after the
   * history, so it never breaks the cached prefix. Absent: none.
   */
  context?: string;
  /** The tools the model may call this round; `[]` means no tools are offered. */
  tools: ToolDeclaration[];
  /**
   * Every tool of the agent, in the agent's order, on a round that offers tools (absent when
   * `tools` is empty). A provider that can narrow the callable tools by name (OpenAI's
   * `allowed_tools`, Gemini's `allowedFunctionNames`) declares all of these and allows only
   * `tools`, so the declarations are the same cacheable prefix at every step (docs/cost.md,
   * "Prompt caching"). A provider that cannot ignores it and declares `tools`.
   */
  declared?: ToolDeclaration[];
  schema?: { name: string; schema: object };
  signal?: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

export interface ModelToolCall {
  name: string;
  /** A string is parsed as JSON by the engine; one that does not parse fails validation. */
  arguments: Record<string, unknown> | string;
}

export interface ModelReply {
  text: string | null;
  structured?: unknown;
  toolCalls: ModelToolCall[];
  usage?: Usage;
}

export type StreamChunk = { delta: string } | { done: true; reply: ModelReply };

export interface AiProvider {
  readonly name: string;
  readonly model: string;
  generate(req: ModelRequest): Promise<ModelReply>;
  stream?(req: ModelRequest): AsyncIterable<StreamChunk>;
}
