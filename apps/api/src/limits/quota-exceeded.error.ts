import { describeQuota, type QuotaKind } from '@switchboard/db';
import { TooManyRequestsError } from '../common/errors';

export class QuotaExceededError extends TooManyRequestsError {
  constructor(
    which: QuotaKind,
    quota: number,
    resetsAt: Date,
    stored: { messageId: string; sessionId: string } | null,
  ) {
    super(
      'quota-exceeded',
      `The tenant has used its ${describeQuota(which, quota)}; it resets at ${resetsAt.toISOString()}. ` +
        (stored ? 'The message was stored but will not be answered. ' : '') +
        'Ask the platform operator to raise the quota.',
      Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)),
      { quota: which, limit: quota, resetsAt: resetsAt.toISOString(), ...(stored ?? {}) },
    );
  }
}
