import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';
import { publishTestSummary } from '../conversation-tests/conversation-test.answers';

// What the agent routes answer (the OpenAPI document's schemas; the handlers are typed by them).

/** An agent as stored, with its draft config. */
export const agentRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  config: storedJson.describe('The draft AgentConfig (checked against its schema when saved; docs/admin-api.md).'),
  /** The live version; null before the first publish. */
  publishedVersion: z.number().int().nullable(),
  archivedAt: z.date().nullable(),
  monthlyBudget: z.string().nullable().describe('USD a month as an exact decimal string ("50.000000"); null = only the tenant\'s budget applies (docs/cost.md).'),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type AgentRecord = z.infer<typeof agentRecord>;

/** Lists, reads and edits say whether the draft differs from the live version. */
export const agentWithDraftState = agentRecord.extend({
  unpublishedChanges: z.boolean().describe('The draft differs from the live version in what a turn sees, or was never published.'),
});
export type AgentWithDraftState = z.infer<typeof agentWithDraftState>;

/** A published version: immutable. */
export const agentVersionRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  agentId: z.uuid(),
  version: z.number().int(),
  config: storedJson.describe('The AgentConfig this version runs.'),
  publishedById: z.uuid().nullable(),
  publishedAt: z.date(),
  note: z.string().nullable(),
  testResults: storedJson.describe('The conversation tests run before the publish.'),
  overrideReason: z.string().nullable(),
  restoredFrom: z.number().int().nullable(),
});
export type AgentVersionRecord = z.infer<typeof agentVersionRecord>;

export const flowWarning = z.object({
  code: z.string().describe('Stable code: unreachable-step, ask-not-collected, no-trigger, ...'),
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])),
});

export const validateAnswer = z.object({ agentId: z.uuid(), warnings: z.array(flowWarning) });

export const publishAnswer = z.object({
  agentId: z.uuid(),
  version: z.number().int(),
  publishedAt: z.date(),
  /** Things that run but are probably mistakes. */
  warnings: z.array(flowWarning),
  note: z.string().nullable(),
  tests: publishTestSummary,
});
export type PublishAnswer = z.infer<typeof publishAnswer>;

export const restoreAnswer = z.object({
  agentId: z.uuid(),
  restoredFrom: z.number().int(),
  /** The publish, when asked for. */
  published: publishAnswer.optional(),
});

const versionRef = z.union([z.number().int(), z.literal('draft')]);
export const diffAnswer = z.object({
  from: versionRef,
  to: versionRef,
  changes: z.array(
    z.object({
      path: z.string().describe('JSON Pointer of the value, e.g. /flows/0/steps/1/prompt.'),
      before: z.unknown().optional(),
      after: z.unknown().optional(),
    }),
  ),
});

/** The FlowSpec JSON Schema an editor validates with. */
export const flowSchemaAnswer = z.record(z.string(), z.unknown()).describe('A JSON Schema (draft 2020-12) of the FlowSpecs this agent accepts.');
