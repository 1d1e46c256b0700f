import { describeQuota, type QuotaKind } from '@switchboard/db';
import { TooManyRequestsError } from '../common/errors';

export class QuotaExceededError extends TooManyRequestsError {
  constructor(
    which: QuotaKind,
    quota: number,
    resetsAt: Date,
    /** A customer's message kept refused, with the agent's fallback message to show them instead of silence. */
    stored: { messageId: string; sessionId: string; fallbackMessage: string } | null,
  ) {
    super(
      'quota-exceeded',
      `The tenant has used its ${describeQuota(which, quota)}; it resets at ${resetsAt.toISOString()}. ` +
        (stored ? 'The message was stored but will not be answered; show the customer details.fallbackMessage. ' : '') +
        'Ask the platform operator to raise the quota.',
      Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)),
      { quota: which, limit: quota, resetsAt: resetsAt.toISOString(), ...(stored ?? {}) },
    );
  }
}
