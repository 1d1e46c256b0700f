import { Injectable } from '@nestjs/common';
import type { ScheduledWake, Session } from '@falai/agent';
import { PrismaService, recordTurnUsage, type Prisma } from '@switchboard/db';
import { COMMIT_TRANSACTION } from '../config/worker-settings';
import { MessageAlreadyAnsweredError, SessionVersionConflictError } from './turn-errors';
import type { TurnUsage } from './turn-record';

export interface OutboundReply {
  /** The engine's message key (stable across replays); unique per session in the database. */
  key: string;
  text: string;
  kind: string;
  /** The engine's `afterMs`: wait this long after the previous message before showing this one. */
  afterMs?: number;
}

export interface TurnCommit {
  turnId: string;
  tenantId: string;
  sessionId: string;
  channelId: string;
  agentId: string;
  agentVersion: number | null;
  provider: { name: string; model: string };
  /** Inbound message ids this turn answers; each must still be queued. */
  answered: string[];
  /** `failed` when the turn could not answer (no reply was possible). */
  inboundStatus: 'answered' | 'failed';
  /** The Session.version the turn was computed from. */
  expectedVersion: number;
  /** The engine's session to save; null keeps the stored state (a turn that never ran) but still bumps the version. */
  state: Session | null;
  replies: OutboundReply[];
  usage: TurnUsage;
  queueWaitMs: number;
  /** Epoch ms when the turn started, for totalMs. */
  startedAt: number;
  /** Wakes the turn asked for: stored as Wake rows (the sweeper's source of truth). */
  wakes: ScheduledWake[];
  /** The wake key this turn ran for, marked fired. */
  firedWake?: string;
  /** The channel's webhook: each reply gets a pending Delivery to it. */
  webhookUrl: string | null;
}

export interface CommittedTurn {
  turnId: string;
  answered: string[];
  /** The replies this commit inserted; `visibleAt` (epoch ms) is set on those shown later. */
  replies: { id: string; text: string; visibleAt?: number }[];
  version: number;
  commitMs: number;
  totalMs: number;
}

/**
 * The one transaction that makes a turn visible: the Turn row, the inbound messages marked
 * answered (only if still queued: a second commit for the same message rolls back whole), the
 * session state behind a version check (a stale save rolls back and the caller replays), the
 * outbound replies (unique per session and engine key, so a replay inserts nothing twice) with
 * their webhook deliveries, the wakes it scheduled and the one it fired, and last the daily
 * usage roll-up.
 */
@Injectable()
export class CommitTurn {
  constructor(private readonly prisma: PrismaService) {}

  async execute(c: TurnCommit): Promise<CommittedTurn> {
    const t0 = Date.now();
    return this.prisma.$transaction(async (tx) => {
      await tx.turn.create({
        data: {
          id: c.turnId,
          tenantId: c.tenantId,
          sessionId: c.sessionId,
          agentId: c.agentId,
          agentVersion: c.agentVersion,
          provider: c.provider.name,
          model: c.provider.model,
          llmCalls: c.usage.llmCalls,
          inputTokens: c.usage.inputTokens,
          outputTokens: c.usage.outputTokens,
          cachedInputTokens: c.usage.cachedInputTokens,
          outcomeCodes: c.usage.outcomeCodes,
          outcomes: c.usage.outcomes as unknown as Prisma.InputJsonValue,
          trace: c.usage.trace as unknown as Prisma.InputJsonValue,
          queueWaitMs: Math.max(0, Math.round(c.queueWaitMs)),
          modelMs: c.usage.modelMs,
          toolsMs: c.usage.toolsMs,
        },
      });

      const now = new Date();
      const marked = await tx.message.updateMany({
        where: { id: { in: c.answered }, sessionId: c.sessionId, tenantId: c.tenantId, direction: 'inbound', status: 'queued' },
        data: { status: c.inboundStatus, turnId: c.turnId, answeredAt: now },
      });
      if (marked.count !== c.answered.length) throw new MessageAlreadyAnsweredError(c.answered);

      const version = c.expectedVersion + 1;
      const saved = await tx.session.updateMany({
        where: { id: c.sessionId, tenantId: c.tenantId, version: c.expectedVersion },
        data: {
          ...(c.state && { state: { ...c.state, version } as unknown as Prisma.InputJsonValue }),
          version,
        },
      });
      if (saved.count !== 1) throw new SessionVersionConflictError(c.sessionId, c.expectedVersion);

      const visibleAt = visibleTimes(c.replies, now.getTime());
      const inserted = c.replies.length
        ? await tx.message.createManyAndReturn({
            data: c.replies.map((r, i) => ({
              tenantId: c.tenantId,
              sessionId: c.sessionId,
              channelId: c.channelId,
              direction: 'outbound' as const,
              status: 'sent' as const,
              text: r.text,
              key: r.key,
              kind: r.kind,
              turnId: c.turnId,
              visibleAt: visibleAt[i] === undefined ? null : new Date(visibleAt[i]!),
            })),
            skipDuplicates: true,
            select: { id: true, key: true, text: true, visibleAt: true },
          })
        : [];
      const byKey = new Map(inserted.map((m) => [m.key, m]));
      const replies = c.replies.flatMap((r) => {
        const m = byKey.get(r.key);
        return m ? [{ id: m.id, text: m.text, ...(m.visibleAt && { visibleAt: m.visibleAt.getTime() }) }] : [];
      });

      if (c.webhookUrl && inserted.length > 0) {
        await tx.delivery.createMany({
          data: inserted.map((m) => ({
            tenantId: c.tenantId,
            channelId: c.channelId,
            messageId: m.id,
            url: c.webhookUrl!,
            // A delayed reply is delivered when it becomes visible, not before.
            nextAttemptAt: m.visibleAt ?? now,
          })),
          skipDuplicates: true,
        });
      }
      if (c.wakes.length > 0) {
        await tx.wake.createMany({
          data: c.wakes.map((w) => ({ tenantId: c.tenantId, sessionId: c.sessionId, key: w.key, dueAt: new Date(w.at) })),
          skipDuplicates: true,
        });
      }
      if (c.firedWake !== undefined) {
        await tx.wake.updateMany({
          where: { sessionId: c.sessionId, key: c.firedWake, status: 'scheduled' },
          data: { status: 'fired', firedAt: now },
        });
      }

      const commitMs = Date.now() - t0;
      const totalMs = Date.now() - c.startedAt;
      await tx.turn.update({ where: { id: c.turnId }, data: { commitMs, totalMs } });
      // Last: the roll-up row is shared by every turn of the agent that day (see recordTurnUsage).
      await recordTurnUsage(tx, {
        tenantId: c.tenantId,
        agentId: c.agentId,
        sessionId: c.sessionId,
        at: now,
        llmCalls: c.usage.llmCalls,
        inputTokens: c.usage.inputTokens,
        outputTokens: c.usage.outputTokens,
        cachedInputTokens: c.usage.cachedInputTokens,
        queueWaitMs: Math.max(0, Math.round(c.queueWaitMs)),
        modelMs: c.usage.modelMs,
        toolsMs: c.usage.toolsMs,
        commitMs,
        totalMs,
        outcomeCodes: c.usage.outcomeCodes,
        deferred: c.usage.outcomes.some((o) => o.status === 'deferred'),
        failed: c.inboundStatus === 'failed' || c.usage.outcomes.some((o) => o.status === 'failed'),
      });
      return { turnId: c.turnId, answered: c.answered, replies, version, commitMs, totalMs };
    }, COMMIT_TRANSACTION);
  }
}

/**
 * When each reply becomes visible: the engine's `afterMs` is a wait after the previous message,
 * so delays add up along the list, and a message after a delayed one waits for it (order holds).
 * undefined = at once.
 */
export function visibleTimes(replies: readonly Pick<OutboundReply, 'afterMs'>[], now: number): (number | undefined)[] {
  let at = now;
  return replies.map((r) => {
    if (r.afterMs && r.afterMs > 0) at += r.afterMs;
    return at > now ? at : undefined;
  });
}
