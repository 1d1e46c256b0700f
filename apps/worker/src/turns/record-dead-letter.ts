import { Inject, Injectable, Logger } from '@nestjs/common';
import { scrubSecretText, type StepOutcome } from '@falai/agent';
import { PrismaService } from '@switchboard/db';
import type { TurnJobData } from '@switchboard/queue';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SessionLeases, type Lease } from '../lease/session-lease';
import { AgentCatalog } from '../agents/agent-catalog';
import { CommitNoticeTurn, derivedTurnId } from './commit-notice-turn';
import { SessionEvents } from './session-events';
import { outcomeUsage } from './turn-record';

/** The outcome code of a Turn row that records a dead-lettered customer message. */
export const DEAD_LETTERED = 'dead-lettered';

const LEASE_POLL_MS = 250;

/**
 * A customer message whose turn job failed for good (every attempt, or stalled out past the
 * fresh jobs a crash earns) stays `queued` for an operator to redrive — but its customer must not
 * wait in silence meanwhile. This sends the agent's fallback message once per message (keyed
 * `fallback:dead-letter:<message>`, its Turn id derived from the message, so a second dead letter
 * of the same message, the sweeper's, sends nothing more) under the session's lease, and leaves
 * the message queued: a redrive still answers it. Nothing of the agent runs, so a message that
 * crashes the engine cannot crash this. Best effort: a failure is logged and the dead letter
 * stays as it was.
 */
@Injectable()
export class RecordDeadLetter {
  private readonly logger = new Logger(RecordDeadLetter.name);

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly agents: AgentCatalog,
    private readonly leases: SessionLeases,
    private readonly notices: CommitNoticeTurn,
    private readonly events: SessionEvents,
  ) {}

  /** True when the customer was told now; false when there was nothing to tell or it was told before. */
  async execute(job: TurnJobData, reason: string): Promise<boolean> {
    if (!job.messageId) return false; // wakes and flow inputs: nobody waits on them
    try {
      const lease = await this.lease(job.sessionId);
      if (!lease) {
        this.logger.warn({ msg: 'dead letter not told: session busy', sessionId: job.sessionId, messageId: job.messageId });
        return false;
      }
      try {
        return await this.record(job as TurnJobData & { messageId: string }, reason);
      } finally {
        await lease.release();
      }
    } catch (err) {
      this.logger.error({ msg: 'dead letter not told', sessionId: job.sessionId, messageId: job.messageId, error: (err as Error).message });
      return false;
    }
  }

  /** The session's lease, waiting out a dead holder's (it lapses within its TTL). */
  private async lease(sessionId: string): Promise<Lease | null> {
    const until = Date.now() + this.env.SESSION_LEASE_TTL_MS + 1_000;
    for (;;) {
      const lease = await this.leases.acquire(sessionId);
      if (lease || Date.now() >= until) return lease;
      await new Promise((r) => setTimeout(r, LEASE_POLL_MS));
    }
  }

  private async record(job: TurnJobData & { messageId: string }, reason: string): Promise<boolean> {
    const { tenantId, sessionId, messageId } = job;
    const message = await this.prisma.message.findFirst({ where: { id: messageId, tenantId, sessionId }, select: { status: true } });
    if (message?.status !== 'queued') return false;
    const turnId = derivedTurnId(DEAD_LETTERED, sessionId, messageId);
    const committed = await this.notices.execute({
      tenantId,
      sessionId,
      turnId,
      parts: async (session) => ({
        agentVersion: null,
        provider: { name: 'none', model: 'none' },
        // Read leniently from the stored config: the agent failing to load may be why the job failed.
        replies: [{ key: `fallback:dead-letter:${messageId}`, text: await this.agents.fallbackMessage(tenantId, session.agentId), kind: 'fallback' }],
        usage: outcomeUsage({ kind: 'idle', status: 'failed', code: DEAD_LETTERED as StepOutcome['code'], message: scrubSecretText(reason), at: new Date().toISOString() }),
        queueWaitMs: job.acceptedAt ? Math.max(0, Date.now() - job.acceptedAt) : 0,
      }),
    });
    if (!committed) return false;
    const replies = committed.replies.map(({ id, text }) => ({ id, text }));
    await this.events.publish(sessionId, { type: 'committed', turnId, answered: [], replies });
    this.logger.warn({ msg: 'dead letter told to the customer', sessionId, messageId, turnId });
    return replies.length > 0;
  }
}
