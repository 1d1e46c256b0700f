import { TooManyRequestsError } from '../common/errors';

export class QuotaExceededError extends TooManyRequestsError {
  constructor(
    which: 'llmCalls' | 'tokens',
    quota: number,
    resetsAt: Date,
    stored: { messageId: string; sessionId: string } | null,
  ) {
    const what = which === 'llmCalls' ? 'model calls' : 'tokens';
    super(
      'quota-exceeded',
      `The tenant has used its monthly quota of ${quota} ${what}; it resets at ${resetsAt.toISOString()}. ` +
        (stored ? 'The message was stored but will not be answered. ' : '') +
        'Ask the platform operator to raise the quota.',
      Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)),
      { quota: which, limit: quota, resetsAt: resetsAt.toISOString(), ...(stored ?? {}) },
    );
  }
}
