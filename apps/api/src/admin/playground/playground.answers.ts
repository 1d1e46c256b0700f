import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';

// What the playground routes answer (the OpenAPI document's schemas).

/** One model call as recorded, so a conversation test saved from here can replay it. */
const recordedCall = z.object({
  call: z.enum(['understand', 'speak']),
  round: z.number().int(),
  /** Names of the tools the request offered. */
  tools: z.array(z.string()),
  /** The structured-output schema's name, when the request asked for one. */
  schema: z.string().optional(),
  reply: z.object({
    text: z.string().nullable(),
    structured: z.unknown().optional(),
    toolCalls: z.array(z.object({ name: z.string(), arguments: z.union([z.record(z.string(), z.unknown()), z.string()]) })),
    usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), cachedInputTokens: z.number().int().optional() }).optional(),
  }),
});

/** One playground turn: what the worker answered plus what ran. */
export const playgroundTurn = z.object({
  index: z.number().int(),
  /** "draft", "unsaved" or "v<N>". */
  target: z.string(),
  version: z.number().int().nullable(),
  provider: z.object({ name: z.string(), model: z.string() }),
  createdAt: z.string(),
  message: z.string(),
  replies: z.array(z.object({ key: z.string(), text: z.string(), kind: z.string() })),
  trace: z.array(storedJson).describe("The engine's trace: model calls (usage, timing) and tool calls (arguments, gate, result)."),
  outcomes: z.array(
    z.object({ kind: z.string(), status: z.string(), code: z.string().optional(), message: z.string().optional(), stepId: z.string().optional(), flowId: z.string().optional() }),
  ),
  llmCalls: z.number().int(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), cachedInputTokens: z.number().int() }),
  /** Field values after the turn. */
  fields: z.record(z.string(), z.unknown()),
  /** The flow and step the conversation is at after the turn, or null. */
  at: z.object({ flow: z.string(), step: z.string() }).nullable(),
  /** The model calls, for a conversation test saved from here. */
  recording: z.array(recordedCall),
  totalMs: z.number(),
  /** A turn the engine could not run. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const playgroundTurnAnswer = z.object({ playgroundId: z.uuid(), turn: playgroundTurn });

export const playgroundView = z.object({
  id: z.uuid(),
  agentId: z.uuid(),
  target: z.string(),
  turns: z.array(playgroundTurn),
  createdAt: z.date(),
  updatedAt: z.date(),
});
