import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { recordCommittedTurn } from '../metrics/turn-metrics';
import { CommitTurn, type CommittedTurn, type TurnCommit } from './commit-turn';

/** What a notice turn says, decided once the session is known (and not handed off). */
export type NoticeParts = Pick<TurnCommit, 'agentVersion' | 'provider' | 'replies' | 'usage' | 'queueWaitMs'>;

export interface NoticeTurn {
  tenantId: string;
  sessionId: string;
  /** Derived from what the notice is about, so recording it twice finds the first. */
  turnId: string;
  parts(session: { agentId: string }): Promise<NoticeParts>;
}

/**
 * A Turn that tells the customer something while their messages stay queued — the holding
 * message of a deferred understand call, the fallback of a dead letter: it answers no message,
 * keeps the session's state, and is recorded once per turn id. Nothing is recorded for a session
 * a person took over (they speak for the agent). Null when nothing was recorded now.
 */
@Injectable()
export class CommitNoticeTurn {
  constructor(
    private readonly prisma: PrismaService,
    private readonly commit: CommitTurn,
  ) {}

  async execute(n: NoticeTurn): Promise<CommittedTurn | null> {
    if (await this.prisma.turn.findUnique({ where: { id: n.turnId }, select: { id: true } })) return null;
    const session = await this.prisma.session.findFirst({
      where: { id: n.sessionId, tenantId: n.tenantId },
      select: { channelId: true, agentId: true, version: true, status: true },
    });
    if (!session || session.status === 'handed_off') return null;
    const parts = await n.parts(session);
    const plan: TurnCommit = {
      turnId: n.turnId,
      tenantId: n.tenantId,
      sessionId: n.sessionId,
      channelId: session.channelId,
      agentId: session.agentId,
      ...parts,
      answered: [],
      inboundStatus: 'answered',
      expectedVersion: session.version,
      state: null,
      startedAt: Date.now(),
      wakes: [],
    };
    const committed = await this.commit.execute(plan);
    recordCommittedTurn(plan, committed);
    return committed;
  }
}

/** A Turn id derived from what the turn records, so recording it twice finds the first. */
export function derivedTurnId(purpose: string, sessionId: string, messageId: string): string {
  const h = createHash('sha256').update(`${purpose}\n${sessionId}\n${messageId}`).digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
