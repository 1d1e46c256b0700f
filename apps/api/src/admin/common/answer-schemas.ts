import { z } from 'zod';

/**
 * A JSON column as it is stored (a channel's settings, an audit entry's before/after): checked by
 * its own rules when written, sent back as it is, so the answer says only "JSON".
 */
export const storedJson = z.unknown().describe('JSON as stored (checked when it was written).');

/**
 * The Prisma `select` of exactly the columns an answer's schema declares: the query reads what the
 * document says the answer holds, and nothing else (no hash or secret slips in).
 */
export function selectOf<S extends z.ZodRawShape>(record: z.ZodObject<S>): { [K in keyof S]: true } {
  return Object.fromEntries(Object.keys(record.shape).map((key) => [key, true])) as { [K in keyof S]: true };
}
