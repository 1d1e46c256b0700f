import { z } from 'zod';

export const MAX_KEY_CHARS = 200;
export const MAX_NAME_CHARS = 100;
export const MAX_DATA_FIELDS = 50;

/** Event and flow names: what the flow language uses (`{ event: "pedido.enviado" }`), no spaces. */
export const flowName = z
  .string()
  .min(1)
  .max(MAX_NAME_CHARS)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'letters, digits, and _ . : - (not first)');

/** Body of POST /v1/events. Strict: an unknown field is a client bug worth reporting. */
export const postEventBody = z.strictObject({
  /** The channel's own key for the conversation, as in POST /v1/messages; created on first use. */
  session: z.string().min(1).max(MAX_KEY_CHARS),
  /** The event's name, as flows name it in `{ event }` triggers and `wait: { event }` steps. */
  event: flowName,
  /** The event's own id: a retry with the same key (same event, same session) is not run twice. */
  key: z.string().min(1).max(MAX_KEY_CHARS),
  /** Field values the event brings (field slug → value), written before the flows run. */
  data: z
    .record(z.string(), z.union([z.string().max(16_000), z.number(), z.boolean(), z.null()]))
    .refine((d) => Object.keys(d).length <= MAX_DATA_FIELDS, `at most ${MAX_DATA_FIELDS} fields`)
    .optional(),
});
export type PostEventBody = z.infer<typeof postEventBody>;

/** 202 of POST /v1/events. */
export const postEventAnswer = z.object({
  eventId: z.string(),
  sessionId: z.uuid(),
  status: z.enum(['queued', 'processed', 'ignored']),
  duplicate: z.boolean().describe('True when this key was reported before: nothing ran again'),
});
