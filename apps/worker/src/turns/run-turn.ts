import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Session, StepOutcome, TurnResult } from '@falai/agent';
import { PrismaService } from '@switchboard/db';
import { AgentCatalog, type LoadedAgent } from '../agents/agent-catalog';
import { MAX_CONFLICT_REPLAYS } from '../config/worker-settings';
import { CommitTurn, type CommittedTurn, type OutboundReply, type TurnCommit } from './commit-turn';
import { LoadHistory } from './load-history';
import { SessionEvents } from './session-events';
import { MessageAlreadyAnsweredError, SessionVersionConflictError, TurnReplayLimitError } from './turn-errors';
import { permanentFailureCode } from './turn-failure';
import { failedForGood, turnUsage, type TurnUsage } from './turn-record';

export interface PendingMessage {
  id: string;
  text: string;
  /** When the API accepted it: the start of its queue wait. */
  createdAt: Date;
}

/** The input of one turn: a message, or a merged burst under its first message's id. */
type TurnMessage = PendingMessage & { mergedIds: string[] };

/**
 * A burst answered as one turn: the texts joined by newlines under the first message's id (so
 * a replay builds the same keys), accepted when the first one was.
 */
function joined(messages: PendingMessage[]): TurnMessage {
  const [first] = messages;
  return { id: first.id, text: messages.map((m) => m.text).join('\n'), createdAt: first.createdAt, mergedIds: messages.map((m) => m.id) };
}

/** The engine records the turn's input id; a merged turn records every message's id. */
function recordInputs(session: Session, ids: string[]): void {
  const seen = new Set(session.inputs);
  session.inputs = [...session.inputs, ...ids.filter((id) => !seen.has(id))].slice(-50);
}

interface SessionRow {
  id: string;
  tenantId: string;
  channelId: string;
  agentId: string;
  state: unknown;
  version: number;
}

/**
 * Answers inbound messages with one engine turn — one message (`sequential`), or a burst joined
 * into one (`merge`): load the session and its agent, run the engine turn, commit.
 * A lost version check replays the turn on the fresh state; a message someone else answered
 * ends quietly (null). Failures no retry can fix are committed as failed turns (with the
 * agent's fallback message when set) so the message never loops through the queue forever.
 */
@Injectable()
export class RunTurn {
  private readonly logger = new Logger(RunTurn.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly agents: AgentCatalog,
    private readonly history: LoadHistory,
    private readonly commit: CommitTurn,
    private readonly events: SessionEvents,
  ) {}

  async execute(tenantId: string, sessionId: string, batch: PendingMessage | PendingMessage[]): Promise<CommittedTurn | null> {
    const messages = Array.isArray(batch) ? batch : [batch];
    const message = joined(messages);
    const firstStart = Date.now();
    for (let replay = 0; replay <= MAX_CONFLICT_REPLAYS; replay++) {
      const startedAt = Date.now();
      const session = await this.prisma.session.findFirstOrThrow({
        where: { id: sessionId, tenantId },
        select: { id: true, tenantId: true, channelId: true, agentId: true, state: true, version: true },
      });
      const turnId = randomUUID();
      this.logger.log({ msg: 'turn started', sessionId, messageId: message.id, turnId, replay, at: startedAt });
      const commit = await this.plan(session, message, turnId, startedAt);
      commit.answered = messages.map((m) => m.id);
      commit.queueWaitMs = firstStart - message.createdAt.getTime();
      try {
        const committed = await this.commit.execute(commit);
        this.logger.log({
          msg: 'turn committed',
          sessionId,
          messageId: message.id,
          answered: committed.answered,
          turnId,
          startedAt,
          at: Date.now(),
          llmCalls: commit.usage.llmCalls,
          outcomeCodes: commit.usage.outcomeCodes,
          totalMs: committed.totalMs,
        });
        await this.events.publish(sessionId, {
          type: 'committed',
          turnId,
          answered: committed.answered,
          replies: committed.replies,
        });
        return committed;
      } catch (err) {
        if (err instanceof MessageAlreadyAnsweredError) {
          this.logger.log({ msg: 'turn dropped: message already answered', sessionId, messageId: message.id, turnId });
          return null;
        }
        if (err instanceof SessionVersionConflictError) {
          this.logger.warn({ msg: 'turn replayed: session version conflict', sessionId, messageId: message.id, turnId });
          continue;
        }
        throw err;
      }
    }
    throw new TurnReplayLimitError(sessionId, MAX_CONFLICT_REPLAYS);
  }

  /** Runs the engine and shapes what the commit stores; permanent failures become a failed turn. */
  private async plan(session: SessionRow, message: TurnMessage, turnId: string, startedAt: number): Promise<TurnCommit> {
    let loaded: LoadedAgent | undefined;
    try {
      loaded = await this.agents.forAgent(session.tenantId, session.agentId);
      const result = await loaded.agent.turn({
        sessionId: session.id,
        message: message.text,
        id: message.id,
        session: (session.state as Session | null) ?? undefined,
        history: await this.history.execute(session.tenantId, session.id),
        context: { tenantId: session.tenantId, sessionId: session.id, turnId, messageId: message.id },
      });
      if (message.mergedIds.length > 1) recordInputs(result.session, message.mergedIds);
      return this.fromResult(session, message, turnId, startedAt, loaded, result);
    } catch (err) {
      const code = permanentFailureCode(err);
      if (!code) throw err;
      this.logger.error({ msg: 'turn failed for good', sessionId: session.id, messageId: message.id, turnId, code, error: (err as Error).message });
      return this.failed(session, message, turnId, startedAt, loaded, code, err as Error);
    }
  }

  private fromResult(
    session: SessionRow,
    message: PendingMessage,
    turnId: string,
    startedAt: number,
    loaded: LoadedAgent,
    result: TurnResult,
  ): TurnCommit {
    const replies: OutboundReply[] = result.messages.map((m) => ({ key: m.key, text: m.text, kind: m.kind }));
    const fallback = loaded.config.fallbackMessage;
    if (fallback && failedForGood(result)) replies.push({ key: `fallback:${message.id}`, text: fallback, kind: 'fallback' });
    return {
      ...this.base(session, message, turnId, startedAt, loaded),
      inboundStatus: 'answered',
      state: result.session,
      replies,
      usage: turnUsage(result),
    };
  }

  private failed(
    session: SessionRow,
    message: PendingMessage,
    turnId: string,
    startedAt: number,
    loaded: LoadedAgent | undefined,
    code: string,
    err: Error,
  ): TurnCommit {
    const fallback = loaded?.config.fallbackMessage;
    const replies: OutboundReply[] = fallback ? [{ key: `fallback:${message.id}`, text: fallback, kind: 'fallback' }] : [];
    const outcome: StepOutcome = { kind: 'idle', status: 'failed', code: code as StepOutcome['code'], message: err.message, at: new Date().toISOString() };
    const usage: TurnUsage = {
      // A provider failure still cost the call that failed.
      llmCalls: code.startsWith('provider-') ? 1 : 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      outcomeCodes: [code],
      outcomes: [outcome],
      trace: [],
      modelMs: 0,
      toolsMs: 0,
    };
    return {
      ...this.base(session, message, turnId, startedAt, loaded),
      inboundStatus: replies.length ? 'answered' : 'failed',
      state: (session.state as Session | null) ?? null,
      replies,
      usage,
    };
  }

  private base(session: SessionRow, message: PendingMessage, turnId: string, startedAt: number, loaded: LoadedAgent | undefined) {
    return {
      turnId,
      tenantId: session.tenantId,
      sessionId: session.id,
      channelId: session.channelId,
      agentId: session.agentId,
      agentVersion: loaded?.version ?? null,
      provider: loaded?.provider ?? { name: 'none', model: 'none' },
      answered: [message.id],
      expectedVersion: session.version,
      queueWaitMs: 0,
      startedAt,
    };
  }
}
