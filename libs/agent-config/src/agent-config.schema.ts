import { z } from 'zod';
import type { AgentConfig } from './agent-config';

// The runtime check of an AgentConfig read from Agent.config / AgentVersion.config. Flows are
// checked as far as their JSON shape goes; the engine's validateFlow judges them when the agent
// is built (unknown fields, tools, step targets), with messages that name the flow and step.

const fieldValue = z.union([z.string(), z.number(), z.boolean()]);

export const fieldConfigSchema = z.strictObject({
  type: z.enum(['string', 'number', 'integer', 'boolean']),
  enum: z.array(fieldValue).min(1).optional(),
  description: z.string().optional(),
  label: z.string().optional(),
  ask: z.string().optional(),
  extract: z.enum(['anywhere', 'asked']).optional(),
});

export const agentProviderConfigSchema = z.strictObject({
  kind: z.enum(['scripted', 'openai', 'gemini', 'openai-compatible']),
  model: z.string().min(1),
  baseURL: z.string().url().optional(),
  credentialId: z.string().optional(),
  scripted: z.unknown().optional(),
});

export const idleConfigSchema = z.union([
  z.literal('silent'),
  z.strictObject({
    prompt: z.string().optional(),
    tools: z.array(z.string().min(1)).optional(),
    instructions: z.string().optional(),
  }),
]);

export const doubleTextingConfigSchema = z.strictObject({
  policy: z.enum(['sequential', 'merge']),
  mergeWindowMs: z.number().int().min(0).max(60_000).optional(),
});

const fieldSlug = z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'a field slug is a letter or _ then letters, digits or _');

export const agentConfigSchema = z.strictObject({
  name: z.string().min(1).optional(),
  instructions: z.string().optional(),
  provider: agentProviderConfigSchema,
  fields: z.record(fieldSlug, fieldConfigSchema),
  // FlowSpec objects; their inner shape is the engine's to judge (see above).
  flows: z.array(z.looseObject({ id: z.string().min(1), steps: z.array(z.unknown()) })),
  tools: z.array(z.string().min(1)),
  idle: idleConfigSchema.optional(),
  maxToolLoops: z.number().int().min(0).max(20).optional(),
  fallbackMessage: z.string().min(1).max(4000).optional(),
  holdingMessage: z.string().min(1).max(4000).optional(),
  doubleTexting: doubleTextingConfigSchema.optional(),
});

// Keeps the hand-written type and the schema in step: a drift fails type-checking here.
type Parsed = z.infer<typeof agentConfigSchema>;
const parsedIsConfig = (p: Parsed): AgentConfig => p;
void parsedIsConfig;

export class InvalidAgentConfigError extends Error {
  readonly code = 'invalid-agent-config';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(
      'Invalid agent config: ' +
        issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ') +
        '. Fix the agent config and publish it again.',
    );
    this.name = 'InvalidAgentConfigError';
  }
}

/** Parses an AgentConfig from stored JSON; throws InvalidAgentConfigError naming each bad path. */
export function parseAgentConfig(json: unknown): AgentConfig {
  const parsed = agentConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new InvalidAgentConfigError(
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return parsed.data;
}
