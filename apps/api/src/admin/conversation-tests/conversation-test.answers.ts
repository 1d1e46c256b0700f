import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';

// What the conversation-test routes answer (the OpenAPI document's schemas; the handlers are
// typed by them).

const runError = z.object({ code: z.string(), message: z.string() });
const recordedCall = z.object({ call: z.string(), round: z.number().int(), tools: z.array(z.string()), schema: z.string().optional() });

export const expectationResult = z.object({
  name: z.string(),
  kind: z.string().describe("The expectation's kind (reply-contains, flow, field, ...)."),
  passed: z.boolean(),
  /** What the run did instead, when it failed (or what it matched). */
  detail: z.string(),
});

export const testTurnResult = z.object({
  index: z.number().int(),
  message: z.string(),
  replies: z.array(z.string()),
  passed: z.boolean(),
  expectations: z.array(expectationResult),
  error: runError.optional(),
});

/** One run of one test. */
export const testRunResult = z.object({
  testId: z.uuid(),
  name: z.string(),
  mode: z.enum(['replay', 'live']),
  target: z.string().describe('"draft", "unsaved" or "v<N>".'),
  passed: z.boolean(),
  turns: z.array(testTurnResult),
  /** Replay only: the first model call no recorded reply fits. */
  diverged: z.object({ turn: z.number().int(), call: z.number().int(), recorded: recordedCall.optional(), actual: recordedCall, message: z.string() }).optional(),
  /** The run could not start (the agent does not build). */
  error: runError.optional(),
  ranAt: z.string(),
});

export const testRunAnswer = z.object({ passed: z.boolean(), results: z.array(testRunResult) });

/** The tests the publish ran against the draft. */
export const publishTestSummary = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Set when failing tests were overridden. */
  overrideReason: z.string().optional(),
  results: z.array(testRunResult),
});

/** A stored test (its recording summarised as a count of model calls). */
export const conversationTestRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  agentId: z.uuid(),
  name: z.string(),
  source: z.string(),
  sourceId: z.uuid().nullable(),
  recordedVersion: z.number().int().nullable(),
  mode: z.string(),
  turns: storedJson,
  lastRun: storedJson,
  lastPassingReplies: storedJson,
  createdAt: z.date(),
  updatedAt: z.date(),
  recordedCalls: z.number().int(),
});
export type ConversationTestRecord = z.infer<typeof conversationTestRecord>;
