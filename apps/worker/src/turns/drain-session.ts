import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { Lease } from '../lease/session-lease';
import { RunTurn } from './run-turn';

export interface DrainRequest {
  tenantId: string;
  sessionId: string;
  /** The message whose job is draining; the drain never stops before it is settled. */
  ownMessageId?: string;
  lease: Lease;
  /** True once the worker is shutting down: finish the own message, leave the rest to their jobs. */
  stopping: () => boolean;
}

export interface DrainResult {
  turns: number;
  /** False when the lease was lost before the own message was answered: the job must retry. */
  ownSettled: boolean;
}

/**
 * The lease holder answers every queued inbound message of the session, oldest first, one turn
 * per message (the `sequential` double-texting policy). Messages that arrive meanwhile are picked
 * up by the same loop; their own jobs later find them answered and end at once.
 */
@Injectable()
export class DrainSession {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runTurn: RunTurn,
  ) {}

  /** True when the message no longer waits for an answer (answered, failed, or gone). */
  async isSettled(tenantId: string, messageId: string): Promise<boolean> {
    const m = await this.prisma.message.findFirst({ where: { id: messageId, tenantId }, select: { status: true } });
    return !m || m.status !== 'queued';
  }

  async execute(req: DrainRequest): Promise<DrainResult> {
    let turns = 0;
    let ownSettled = !req.ownMessageId;
    while (req.lease.isHeld) {
      if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
      if (req.stopping() && ownSettled) break;
      const next = await this.prisma.message.findFirst({
        where: { tenantId: req.tenantId, sessionId: req.sessionId, direction: 'inbound', status: 'queued' },
        orderBy: { seq: 'asc' },
        select: { id: true, text: true, createdAt: true },
      });
      if (!next) break;
      await this.runTurn.execute(req.tenantId, req.sessionId, next);
      turns++;
    }
    if (!ownSettled && req.ownMessageId) ownSettled = await this.isSettled(req.tenantId, req.ownMessageId);
    return { turns, ownSettled };
  }
}
