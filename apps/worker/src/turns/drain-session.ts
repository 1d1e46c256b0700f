import { Injectable, Logger } from '@nestjs/common';
import type { DoubleTextingConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { AgentCatalog } from '../agents/agent-catalog';
import { DEFAULT_MERGE_WINDOW_MS, MERGE_MAX_MESSAGES, MERGE_MAX_WAIT_WINDOWS } from '../config/worker-settings';
import { SessionLeases, type Lease } from '../lease/session-lease';
import { AgentModelHealth } from './agent-model-health';
import { LoadTurnState, type PendingMessage, type SessionClaim, type TurnState } from './load-turn-state';
import { backoffWaitMs } from './provider-backoff';
import { RetireAnsweredJobs } from './retire-answered-jobs';
import { RunTurn } from './run-turn';
import { SessionBackoffError } from './turn-errors';

export interface DrainRequest {
  tenantId: string;
  sessionId: string;
  /** The message whose job is draining; the drain never stops before it is settled. */
  ownMessageId?: string;
  /** When the own message was accepted (none for a wake): one accepted after a deferral tries the model. */
  acceptedAt?: number;
  lease: Lease;
  /** The drain's first claim, when read as the lease was taken (`take`, Postgres mode). */
  first?: SessionClaim;
  /** True once the worker is shutting down: finish the own message, leave the rest to their jobs. */
  stopping: () => boolean;
}

export interface DrainResult {
  turns: number;
  /**
   * False when the lease was lost before the own message was answered: the job must retry. True
   * with no turns: someone else settled it (an earlier holder answered it).
   */
  ownSettled: boolean;
  /** Every message this drain's turns answered, the own one included. */
  answered: string[];
}

/** A session's lease, taken for a drain, with the drain's first claim when read in the same round trip. */
export interface TakenSession {
  lease: Lease;
  first?: SessionClaim;
}

const SEQUENTIAL: DoubleTextingConfig = { policy: 'sequential' };

/**
 * The lease holder answers every queued inbound message of the session in arrival order, by the
 * agent's double-texting policy: `sequential` runs one turn per message; `merge` waits until the
 * burst has been quiet for the merge window, then answers all its messages in one turn. Messages
 * that arrive meanwhile are picked up by the same loop; their own jobs are removed as each turn
 * commits (RetireAnsweredJobs), or, held by a worker meanwhile, find them answered.
 *
 * A drain's first turn costs two Postgres round trips (docs/hot-path.md): the claim-and-load
 * (LoadTurnState.claim: the own message's status, the next queued message, the session, its
 * agent's version stamp, the history) and the commit, which returns the next queued message, so
 * the drain ends after the last turn without looking again. Each sequential turn after it costs
 * one: the commit before it read its state too.
 */
@Injectable()
export class DrainSession {
  private readonly logger = new Logger(DrainSession.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly leases: SessionLeases,
    private readonly runTurn: RunTurn,
    private readonly agents: AgentCatalog,
    private readonly turnState: LoadTurnState,
    private readonly retire: RetireAnsweredJobs,
    private readonly modelHealth: AgentModelHealth,
  ) {}

  /** The session's inbound messages still waiting for an answer, oldest first. */
  async queuedIds(tenantId: string, sessionId: string): Promise<string[]> {
    const rows = await this.prisma.message.findMany({
      where: { tenantId, sessionId, direction: 'inbound', status: 'queued' },
      orderBy: { seq: 'asc' },
      take: MERGE_MAX_MESSAGES,
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** True when the message no longer waits for an answer (answered, failed, or gone). */
  async isSettled(tenantId: string, messageId: string): Promise<boolean> {
    const row = await this.prisma.message.findFirst({ where: { id: messageId, tenantId }, select: { status: true } });
    return !row || row.status !== 'queued';
  }

  /**
   * Takes the session's lease to drain it for a job answering `ownMessageId`, or returns null when
   * another holder has it. In Postgres mode the lease is a row beside the session's, and one
   * statement takes it and reads the drain's first claim: the drain then starts without a round
   * trip of its own (one of the four a message waited on in Postgres mode, docs/hot-path.md).
   */
  async take(tenantId: string, sessionId: string, ownMessageId?: string): Promise<TakenSession | null> {
    if (!this.leases.takeableInAppDatabase) {
      const lease = await this.leases.acquire(sessionId);
      return lease && { lease };
    }
    const ticket = this.leases.ticket(sessionId);
    let first: SessionClaim | null;
    try {
      first = await this.turnState.claimLeased(ticket, tenantId, sessionId, ownMessageId);
    } catch (err) {
      // A statement lost after it committed would leave the lease held until its TTL ran out.
      await this.leases.letGo(ticket).catch(() => undefined);
      throw err;
    }
    return first && { lease: this.leases.taken(ticket), first };
  }

  async execute(req: DrainRequest): Promise<DrainResult> {
    const first = req.first ?? (await this.turnState.claim(req.tenantId, req.sessionId, req.ownMessageId));
    // Answered by an earlier holder: end at once, unless messages still wait. Holding the lease,
    // this job answers them rather than trusting their own jobs to come: those may be gone (a
    // flushed Redis, a job that failed), leaving the session silent until the sweeper's next pass.
    if (req.ownMessageId && first.ownSettled && first.next === null) return { turns: 0, ownSettled: true, answered: [] };
    // The session waits for its model: the job that was deferred carries it (provider-backoff.ts).
    const { state } = first;
    if (state?.providerBackoff && first.next !== null) {
      const { agentId } = state.session;
      const waitMs = backoffWaitMs(state.providerBackoff, req.acceptedAt, (since) => this.modelHealth.answeredSince(agentId, since));
      if (waitMs !== undefined) {
        if (req.ownMessageId && first.ownSettled) return { turns: 0, ownSettled: true, answered: [] };
        throw new SessionBackoffError(state.providerBackoff.retryAt, waitMs);
      }
    }
    let turns = 0;
    const answered: string[] = [];
    let ownSettled = !req.ownMessageId || first.ownSettled;
    // Once per drain (a policy edit applies from the next drain).
    const policy = await this.policyOf(req, first.state);
    // The state the next turn starts from, when read already; and whether anything may still wait.
    let claim: SessionClaim | undefined = first;
    let more = first.next !== null;
    while (more && req.lease.isHeld) {
      // Only a stopping worker needs to know whether its own message is answered yet.
      if (req.stopping()) {
        if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
        if (ownSettled) break;
      }
      let batch: PendingMessage[];
      if (policy.policy === 'merge') {
        // The burst's wait makes any state read before it stale: the turn reads its own.
        batch = await this.burst(req, policy.mergeWindowMs ?? DEFAULT_MERGE_WINDOW_MS);
        claim = undefined;
      } else {
        claim ??= await this.turnState.claim(req.tenantId, req.sessionId);
        batch = claim.next ? [claim.next] : [];
      }
      if (batch.length === 0) break;
      const sequential = policy.policy !== 'merge';
      const trigger = { kind: 'messages' as const, messages: batch };
      const committed = await this.runTurn.execute(req.tenantId, req.sessionId, trigger, req.lease, { state: claim?.state, loadNext: sequential });
      turns++;
      if (committed) {
        answered.push(...committed.answered);
        // Not awaited (it never rejects): the next turn need not wait for the queue's removals.
        void this.retire.execute(committed.answered.filter((id) => id !== req.ownMessageId));
      }
      if (req.ownMessageId && committed?.answered.includes(req.ownMessageId)) ownSettled = true;
      // The commit read the next turn's state after its writes: that turn claims nothing itself.
      claim = committed?.nextState ? { ownSettled: false, next: committed.next, state: committed.nextState } : undefined;
      // The commit saw what is queued after it; a turn dropped uncommitted (answered elsewhere) did not.
      more = committed === null || committed.next !== null;
    }
    if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
    return { turns, ownSettled, answered };
  }

  private pending(req: DrainRequest, take: number): Promise<PendingMessage[]> {
    return this.prisma.message.findMany({
      where: { tenantId: req.tenantId, sessionId: req.sessionId, direction: 'inbound', status: 'queued' },
      orderBy: { seq: 'asc' },
      take,
      select: { id: true, text: true, createdAt: true },
    });
  }

  /** Waits for the burst to go quiet for `windowMs` (at most MERGE_MAX_WAIT_WINDOWS windows), then takes it. */
  private async burst(req: DrainRequest, windowMs: number): Promise<PendingMessage[]> {
    const deadline = Date.now() + windowMs * MERGE_MAX_WAIT_WINDOWS;
    for (;;) {
      const newest = await this.prisma.message.findFirst({
        where: { tenantId: req.tenantId, sessionId: req.sessionId, direction: 'inbound', status: 'queued' },
        orderBy: { seq: 'desc' },
        select: { createdAt: true },
      });
      if (!newest) return [];
      const quietFor = Date.now() - newest.createdAt.getTime();
      const left = Math.min(windowMs - quietFor, deadline - Date.now());
      if (left <= 0 || req.stopping() || !req.lease.isHeld) break;
      await new Promise((r) => setTimeout(r, left));
    }
    return this.pending(req, MERGE_MAX_MESSAGES);
  }

  /** The agent's policy; `sequential` when the agent cannot be loaded (the turn then records why). */
  private async policyOf(req: DrainRequest, state: TurnState | undefined): Promise<DoubleTextingConfig> {
    if (!state) return SEQUENTIAL;
    try {
      return (await this.agents.forAgent(req.tenantId, state.session.agentId, state.agent)).config.doubleTexting ?? SEQUENTIAL;
    } catch (err) {
      this.logger.warn({ msg: 'agent not loadable; answering one message at a time', sessionId: req.sessionId, error: (err as Error).message });
      return SEQUENTIAL;
    }
  }
}
