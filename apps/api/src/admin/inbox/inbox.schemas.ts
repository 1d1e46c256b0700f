import { z } from 'zod';

/** A customer-facing text or a note: trimmed, not empty, short enough for every platform's limits once split. */
const text = z.string().trim().min(1, 'Write something.').max(4000, 'At most 4000 characters.');

export const replyBody = z.strictObject({
  text,
  /** The console's id for this send: the same id twice (a retry, a double click) stores and delivers one reply. */
  clientKey: z.uuid().optional(),
});
export type ReplyBody = z.infer<typeof replyBody>;

export const noteBody = z.strictObject({ text });
export type NoteBody = z.infer<typeof noteBody>;
