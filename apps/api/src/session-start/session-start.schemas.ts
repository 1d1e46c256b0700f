import { z } from 'zod';
import { flowName, MAX_KEY_CHARS } from '../events/events.schemas';

export const sessionStartParams = z.strictObject({ sessionId: z.string() });

/** Body of POST /v1/sessions/:sessionId/start. */
export const sessionStartBody = z.strictObject({
  /** The id of the flow to start (a flow of the agent the session runs). */
  flow: flowName,
  /** Idempotency key: a retry with the same key starts the flow once. */
  key: z.string().min(1).max(MAX_KEY_CHARS),
});
export type SessionStartBody = z.infer<typeof sessionStartBody>;

/** 202 of POST /v1/sessions/:sessionId/start. */
export const sessionStartAnswer = z.object({
  startId: z.string(),
  sessionId: z.uuid(),
  flow: z.string(),
  status: z.enum(['queued', 'processed', 'ignored']),
  duplicate: z.boolean().describe('True when this key started the flow before: nothing ran again'),
});
