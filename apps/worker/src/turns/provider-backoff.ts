import { Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';

// A session whose model is down waits as one (docs/reliability.md, "A down model, one call per
// step"). Its messages' jobs used to climb the retry ladder each on its own: five waiting
// messages made five model calls per step, against a provider that was failing, or limiting the
// tenant's rate.

/** A session's wait for its model, as the claim-and-load reads it (epoch ms). */
export interface ProviderBackoff {
  /** When the session's turn is tried again. */
  retryAt: number;
  /** When the turn was deferred: a message accepted after it tries the model itself. */
  deferredAt: number;
  /** Deferrals in a row without a commit: the session's rung on the retry ladder. */
  deferrals: number;
}

/** How long after the retry time the session's other jobs come back, so the deferred one goes first. */
export const BACKOFF_FOLLOWER_DELAY_MS = { min: 200, jitter: 400 };

/**
 * How long a job waits instead of running the session's turn, or undefined to run it now. It
 * waits while the session waits for its model, unless the model answered another turn of the
 * agent since the deferral (`modelAnsweredSince`: the outage is over, or it was one process's),
 * or its message came after the deferral: a customer's new message is a real try, one call of
 * its own. A job without a message (a wake) waits with the messages.
 */
export function backoffWaitMs(
  backoff: ProviderBackoff | null | undefined,
  acceptedAt: number | undefined,
  modelAnsweredSince: (since: number) => boolean,
  now = Date.now(),
  random: () => number = Math.random,
): number | undefined {
  if (!backoff || backoff.retryAt <= now) return undefined;
  if (acceptedAt !== undefined && acceptedAt > backoff.deferredAt) return undefined;
  if (modelAnsweredSince(backoff.deferredAt)) return undefined;
  return backoff.retryAt - now + BACKOFF_FOLLOWER_DELAY_MS.min + Math.floor(random() * BACKOFF_FOLLOWER_DELAY_MS.jitter);
}

/**
 * Writes a session's backoff after a deferred turn. Stamped with the session's version: the next
 * commit (a turn that got through) moves the version on, and the claim-and-load then reads no
 * backoff, so nothing has to clear it.
 */
@Injectable()
export class RecordProviderBackoff {
  private readonly logger = new Logger(RecordProviderBackoff.name);

  constructor(private readonly prisma: PrismaService) {}

  /** Best effort: without it the session's jobs retry each on its own, as they did before. */
  async execute(tenantId: string, sessionId: string, backoff: ProviderBackoff): Promise<void> {
    try {
      await this.prisma.$executeRaw`
        UPDATE "Session"
           SET "providerBackoff" = jsonb_build_object('retryAt', ${backoff.retryAt}::bigint, 'deferredAt', ${backoff.deferredAt}::bigint,
                                                      'deferrals', ${backoff.deferrals}::int, 'version', "version")
         WHERE "id" = ${sessionId}::uuid AND "tenantId" = ${tenantId}::uuid`;
    } catch (err) {
      this.logger.warn({ msg: 'provider backoff not recorded', sessionId, error: (err as Error).message });
    }
  }
}
