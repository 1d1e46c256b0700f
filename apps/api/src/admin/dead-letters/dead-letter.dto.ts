import type { TurnJob } from './turn-queue-reader';
import { FilterValueError, type ListSpec } from '../list-query/list-query';
import { isUuid, uuidFilter } from '../list-query/filters';
import { z } from 'zod';

/**
 * A turn job that failed every attempt: the turn dead letter. Its message stays `queued` in
 * Postgres until a retry answers it. The worker logs each failure with this job id.
 */
export const deadLetterRecord = z.object({
  /** The BullMQ job id (msg-<messageId>, sweep-<messageId> or wake-<hash>). */
  id: z.string(),
  tenantId: z.uuid(),
  sessionId: z.uuid(),
  messageId: z.uuid().nullable(),
  /** The wake key, for a wake job. */
  wake: z.string().nullable(),
  /** The error of the last attempt. */
  failedReason: z.string(),
  attemptsMade: z.number().int(),
  maxAttempts: z.number().int(),
  enqueuedAt: z.iso.datetime(),
  failedAt: z.iso.datetime().nullable(),
  /** The message's status now: `queued` still waits for an answer; anything else needs no redrive. Null for wakes and deleted messages. */
  messageStatus: z.string().nullable(),
});
export type DeadLetterDto = z.infer<typeof deadLetterRecord>;

export function toDeadLetterDto(job: TurnJob, messageStatus: string | null): DeadLetterDto {
  return {
    id: String(job.id),
    tenantId: job.data.tenantId,
    sessionId: job.data.sessionId,
    messageId: job.data.messageId ?? null,
    wake: job.data.wake ?? null,
    failedReason: job.failedReason ?? '',
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    enqueuedAt: new Date(job.timestamp).toISOString(),
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    messageStatus,
  };
}

type Keep = (d: TurnJob) => boolean;

/** Filters become predicates over the jobs' data: the failed set lives in Redis, not in a table. */
const dataEquals =
  (key: 'tenantId' | 'sessionId' | 'messageId') =>
  (value: unknown): Keep => {
    const parsed = uuidFilter(key)(value);
    const wanted = new Set(typeof parsed[key] === 'string' ? [parsed[key]] : parsed[key].in);
    return (job) => wanted.has(job.data[key] ?? '');
  };

export const deadLettersListSpec: ListSpec<Keep> = {
  resource: 'dead-letters',
  sortFields: ['failedAt', 'id'],
  defaultSort: ['failedAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    tenantId: dataEquals('tenantId'),
    sessionId: dataEquals('sessionId'),
    messageId: dataEquals('messageId'),
    id: (value) => {
      const ids = Array.isArray(value) ? value : [value];
      if (!ids.every((v) => typeof v === 'string' && isJobId(v))) throw new FilterValueError('must be a job id or a list of them.');
      const wanted = new Set(ids as string[]);
      return (job) => wanted.has(String(job.id));
    },
  },
};

/** Job ids the turn queue makes; anything else is answered as not found without asking Redis. */
export function isJobId(id: string): boolean {
  return /^(msg|sweep)-[0-9a-f-]{36}$/i.test(id) ? isUuid(id.slice(id.indexOf('-') + 1)) : /^wake-[0-9a-f]{40}$/.test(id);
}
