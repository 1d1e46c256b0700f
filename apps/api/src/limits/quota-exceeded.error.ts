import { describeQuota, quotaOwner, type QuotaKind, type QuotaVerdict } from '@switchboard/db';
import { TooManyRequestsError } from '../common/errors';

/**
 * 429 `quota-exceeded`: the tenant spent a monthly quota, or the agent its own budget
 * (`details.quota = "agentCost"`, with `details.agentId`).
 */
export class QuotaExceededError extends TooManyRequestsError {
  constructor(
    verdict: QuotaVerdict & { exceeded: QuotaKind },
    /** A customer's message kept refused, with the agent's fallback message to show them instead of silence. */
    stored: { messageId: string; sessionId: string; fallbackMessage: string } | null,
  ) {
    const { exceeded: which, limit, resetsAt } = verdict;
    const agent = which === 'agentCost' ? { agentId: verdict.agent!.agentId } : {};
    super(
      'quota-exceeded',
      `The ${quotaOwner(which)} has used its ${describeQuota(which, limit!)}; it resets at ${resetsAt.toISOString()}. ` +
        (stored ? 'The message was stored but will not be answered; show the customer details.fallbackMessage. ' : '') +
        (which === 'agentCost' ? "Raise the agent's budget in the console to answer again." : 'Ask the platform operator to raise the quota.'),
      Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)),
      { quota: which, limit: limit!, resetsAt: resetsAt.toISOString(), ...agent, ...(stored ?? {}) },
    );
  }
}
