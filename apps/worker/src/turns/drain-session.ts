import { Injectable, Logger } from '@nestjs/common';
import type { DoubleTextingConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { AgentCatalog } from '../agents/agent-catalog';
import { DEFAULT_MERGE_WINDOW_MS, MERGE_MAX_MESSAGES, MERGE_MAX_WAIT_WINDOWS } from '../config/worker-settings';
import type { Lease } from '../lease/session-lease';
import { RunTurn, type PendingMessage } from './run-turn';

export interface DrainRequest {
  tenantId: string;
  sessionId: string;
  /** The message whose job is draining; the drain never stops before it is settled. */
  ownMessageId?: string;
  /** The session's agent when the caller read it already (messageState); else the drain reads it. */
  agentId?: string;
  lease: Lease;
  /** True once the worker is shutting down: finish the own message, leave the rest to their jobs. */
  stopping: () => boolean;
}

export interface DrainResult {
  turns: number;
  /** False when the lease was lost before the own message was answered: the job must retry. */
  ownSettled: boolean;
}

const SEQUENTIAL: DoubleTextingConfig = { policy: 'sequential' };

/**
 * The lease holder answers every queued inbound message of the session in arrival order, by the
 * agent's double-texting policy: `sequential` runs one turn per message; `merge` waits until the
 * burst has been quiet for the merge window, then answers all its messages in one turn. Messages
 * that arrive meanwhile are picked up by the same loop; their own jobs later find them answered.
 */
@Injectable()
export class DrainSession {
  private readonly logger = new Logger(DrainSession.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly runTurn: RunTurn,
    private readonly agents: AgentCatalog,
  ) {}

  /**
   * What a job needs before it takes the lease, in one query: whether its message still waits
   * for an answer (answered, failed or gone: settled), and its session's agent (the drain's
   * policy comes from it).
   */
  async messageState(tenantId: string, messageId: string): Promise<{ settled: boolean; agentId?: string }> {
    const [row] = await this.prisma.$queryRaw<{ status: string; agentId: string }[]>`
      SELECT m."status", s."agentId" FROM "Message" m JOIN "Session" s ON s."id" = m."sessionId"
       WHERE m."id" = ${messageId}::uuid AND m."tenantId" = ${tenantId}::uuid`;
    return row ? { settled: row.status !== 'queued', agentId: row.agentId } : { settled: true };
  }

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
    return (await this.messageState(tenantId, messageId)).settled;
  }

  async execute(req: DrainRequest): Promise<DrainResult> {
    let turns = 0;
    let ownSettled = !req.ownMessageId;
    // Once per drain (a policy edit applies from the next drain); `pending` finds what is left.
    const policy = await this.policyOf(req.tenantId, req.sessionId, req.agentId);
    while (req.lease.isHeld) {
      // Only a stopping worker needs to know whether its own message is answered yet.
      if (req.stopping()) {
        if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
        if (ownSettled) break;
      }
      const batch = policy.policy === 'merge' ? await this.burst(req, policy.mergeWindowMs ?? DEFAULT_MERGE_WINDOW_MS) : await this.pending(req, 1);
      if (batch.length === 0) break;
      await this.runTurn.execute(req.tenantId, req.sessionId, { kind: 'messages', messages: batch }, req.lease);
      turns++;
    }
    if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
    return { turns, ownSettled };
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
  private async policyOf(tenantId: string, sessionId: string, knownAgentId?: string): Promise<DoubleTextingConfig> {
    const agentId = knownAgentId ?? (await this.prisma.session.findFirst({ where: { id: sessionId, tenantId }, select: { agentId: true } }))?.agentId;
    if (!agentId) return SEQUENTIAL;
    try {
      return (await this.agents.forAgent(tenantId, agentId)).config.doubleTexting ?? SEQUENTIAL;
    } catch (err) {
      this.logger.warn({ msg: 'agent not loadable; answering one message at a time', sessionId, error: (err as Error).message });
      return SEQUENTIAL;
    }
  }
}
