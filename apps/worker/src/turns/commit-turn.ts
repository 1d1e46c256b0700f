import { Injectable } from '@nestjs/common';
import type { ScheduledWake, Session } from '@falai/agent';
import { LATENCY_BUCKET_BOUNDS_MS, ModelPrices, PrismaService, usageSlot } from '@switchboard/db';
import pg from 'pg';
import { turnCost } from './turn-cost';
import { MessageAlreadyAnsweredError, SessionVersionConflictError } from './turn-errors';
import { HISTORY_LIMIT } from '../config/worker-settings';
import { pendingOf, turnStateOf, type PendingMessage, type PendingMessageJson, type TurnState, type TurnStateJson } from './load-turn-state';
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
}

export interface CommittedTurn {
  turnId: string;
  answered: string[];
  /** The replies this commit inserted; `visibleAt` (epoch ms) is set on those shown later. */
  replies: { id: string; text: string; visibleAt?: number }[];
  version: number;
  commitMs: number;
  totalMs: number;
  /** The session's next queued inbound message as the commit left it (null: none waits). */
  next: PendingMessage | null;
  /** The state the next turn starts from, read after this turn's writes; only when asked for and `next` waits. */
  nextState: TurnState | null;
}

/**
 * The one transaction that makes a turn visible, run by the database function sb_commit_turn
 * (migration 20261202191000) in one round trip: the Turn row, the inbound messages marked
 * answered (only if still queued: a second commit for the same message rolls back whole), the
 * session state behind a version check (a stale save rolls back and the caller replays), the
 * outbound replies (unique per session and engine key, so a replay inserts nothing twice) with
 * their webhook deliveries (to the channel's webhook as it is at commit), the wakes it scheduled
 * and the one it fired, and last the daily usage and cost roll-ups; it returns the session's next queued
 * inbound message too (and, asked, the state its turn starts from), so the drain needs no read of
 * its own between turns. The turn is priced here,
 * call by call, at the price in force at commit (turnCost). The function's two checks come back
 * as MessageAlreadyAnsweredError and SessionVersionConflictError.
 */
@Injectable()
export class CommitTurn {
  constructor(
    private readonly prisma: PrismaService,
    private readonly prices: ModelPrices,
  ) {}

  /**
   * `loadNext`: the caller goes on to the session's next queued message (a sequential drain), so
   * the commit reads the state that turn starts from too (LoadTurnState's query, sb_turn_state)
   * and the next turn needs no claim of its own.
   */
  async execute(c: TurnCommit, opts: { loadNext?: boolean } = {}): Promise<CommittedTurn> {
    const now = Date.now();
    // Priced at commit, at the price in force now (docs/cost.md); a turn without calls looks nothing up.
    const hasCalls = c.usage.trace.some((e) => e.type === 'model');
    const price = hasCalls ? await this.prices.priceFor(c.tenantId, c.provider.name, c.provider.model, new Date(now)) : undefined;
    const cost = turnCost(c.usage.trace, c.provider, price);
    const version = c.expectedVersion + 1;
    const visibleAt = visibleTimes(c.replies, now);
    const payload = {
      turnId: c.turnId,
      tenantId: c.tenantId,
      sessionId: c.sessionId,
      channelId: c.channelId,
      agentId: c.agentId,
      agentVersion: c.agentVersion,
      provider: c.provider.name,
      model: c.provider.model,
      llmCalls: c.usage.llmCalls,
      inputTokens: c.usage.inputTokens,
      outputTokens: c.usage.outputTokens,
      cachedInputTokens: c.usage.cachedInputTokens,
      outcomeCodes: c.usage.outcomeCodes,
      outcomes: c.usage.outcomes,
      trace: cost.trace,
      // Bigints travel as decimal strings: JSON has no integer beyond 2^53.
      costMicros: cost.costMicros.toString(),
      unpricedCalls: cost.unpricedCalls,
      costs: cost.lines.map((l) => ({ ...l, costMicros: l.costMicros.toString() })),
      completedRuns: c.usage.completedRuns ?? 0,
      queueWaitMs: Math.max(0, Math.round(c.queueWaitMs)),
      modelMs: c.usage.modelMs,
      toolsMs: c.usage.toolsMs,
      answered: c.answered,
      inboundStatus: c.inboundStatus,
      expectedVersion: c.expectedVersion,
      state: c.state && { ...c.state, version },
      replies: c.replies.map((r, i) => ({ key: r.key, text: r.text, kind: r.kind, visibleAt: visibleAt[i] ?? null })),
      wakes: c.wakes.map((w) => ({ key: w.key, at: new Date(w.at).getTime() })),
      now,
      firedWake: c.firedWake ?? null,
      elapsedMs: Math.max(0, now - c.startedAt),
      usageSlot: usageSlot(c.sessionId),
      latencyBounds: LATENCY_BUCKET_BOUNDS_MS,
      deferred: c.usage.outcomes.some((o) => o.status === 'deferred'),
      failed: c.inboundStatus === 'failed' || c.usage.outcomes.some((o) => o.status === 'failed'),
      historyLimit: opts.loadNext ? HISTORY_LIMIT : null,
    };
    let result: CommitFunctionResult;
    try {
      const [row] = await this.prisma.queryPrepared<{ result: CommitFunctionResult }>('sb_commit_turn', {
        text: 'SELECT sb_commit_turn($1::jsonb) AS result',
        values: [JSON.stringify(payload)],
      });
      result = row.result;
    } catch (err) {
      const state = sqlStateOf(err);
      if (state === ALREADY_ANSWERED) throw new MessageAlreadyAnsweredError(c.answered);
      if (state === VERSION_CONFLICT) throw new SessionVersionConflictError(c.sessionId, c.expectedVersion);
      throw err;
    }
    const { replies, commitMs, totalMs } = result;
    const nextState = result.nextState ? turnStateOf(result.nextState) : null;
    return { turnId: c.turnId, answered: c.answered, replies, version: result.version, commitMs, totalMs, next: pendingOf(result.next), nextState };
  }
}

/** What sb_commit_turn returns. */
interface CommitFunctionResult {
  version: number;
  commitMs: number;
  totalMs: number;
  replies: { id: string; text: string; visibleAt?: number }[];
  /** The session's next queued inbound message (migration 20261204180000). */
  next: PendingMessageJson | null;
  /** With `historyLimit` in the payload and a next message: sb_turn_state after the commit (migration 20261206060000). */
  nextState?: TurnStateJson | null;
}

// The SQLSTATEs sb_commit_turn raises for its two checks.
const ALREADY_ANSWERED = 'SB409';
const VERSION_CONFLICT = 'SB412';

/** The SQLSTATE of a Postgres error (node-postgres' DatabaseError carries it as `code`). */
function sqlStateOf(err: unknown): string | undefined {
  if (!(err instanceof pg.DatabaseError)) return undefined;
  return err.code;
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
