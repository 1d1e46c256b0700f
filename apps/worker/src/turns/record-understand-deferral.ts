import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { failureCode, scrubSecretText, type ProviderError, type StepOutcome } from '@falai/agent';
import { PrismaService } from '@switchboard/db';
import { AgentCatalog, type LoadedAgent } from '../agents/agent-catalog';
import { recordCommittedTurn } from '../metrics/turn-metrics';
import { CommitTurn, type TurnCommit } from './commit-turn';

export interface UnderstandDeferral {
  tenantId: string;
  sessionId: string;
  /** The messages the failed turn answers; the first names the deferral. */
  messageIds: string[];
  error: ProviderError;
  retryAt: Date;
}

/**
 * A turn whose understand call failed for now commits nothing of its own: its messages stay
 * queued and the job comes back. This records the deferral once per turn (per first message),
 * however often the job runs: a Turn row with the `provider-*` outcome deferred until the retry,
 * so health, the dashboard and /metrics see the outage, and the agent's holding message when it
 * has one, so the customer knows a reply is coming. The Turn id is derived from the first message,
 * and the reply is keyed `holding:understand:<first message>`: a retried job (or a worker killed
 * after the commit) finds both and sends nothing more. The session state is kept as it was.
 */
@Injectable()
export class RecordUnderstandDeferral {
  private readonly logger = new Logger(RecordUnderstandDeferral.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly agents: AgentCatalog,
    private readonly commit: CommitTurn,
  ) {}

  /** The replies sent now (the holding message the first time, else none). Best effort: the job is deferred whatever happens here. */
  async execute(d: UnderstandDeferral): Promise<{ id: string; text: string }[]> {
    try {
      return await this.record(d);
    } catch (err) {
      this.logger.warn({ msg: 'understand deferral not recorded', sessionId: d.sessionId, error: (err as Error).message });
      return [];
    }
  }

  private async record(d: UnderstandDeferral): Promise<{ id: string; text: string }[]> {
    const first = d.messageIds[0];
    if (!first) return [];
    const turnId = deferralTurnId(d.sessionId, first);
    if (await this.prisma.turn.findUnique({ where: { id: turnId }, select: { id: true } })) return [];
    const session = await this.prisma.session.findFirst({
      where: { id: d.sessionId, tenantId: d.tenantId },
      select: { channelId: true, agentId: true, version: true, status: true },
    });
    // A person who took the conversation meanwhile speaks for the agent.
    if (!session || session.status === 'handed_off') return [];
    const agent = await this.agents.forAgent(d.tenantId, session.agentId);
    const startedAt = Date.now();
    const plan: TurnCommit = {
      turnId,
      tenantId: d.tenantId,
      sessionId: d.sessionId,
      channelId: session.channelId,
      agentId: session.agentId,
      agentVersion: agent.version,
      provider: agent.provider,
      answered: [],
      inboundStatus: 'answered',
      expectedVersion: session.version,
      state: null,
      replies: holdingReply(agent, first),
      usage: deferralUsage(d.error, d.retryAt),
      queueWaitMs: 0,
      startedAt,
      wakes: [],
    };
    const committed = await this.commit.execute(plan);
    recordCommittedTurn(plan, committed);
    this.logger.log({ msg: 'understand deferral recorded', sessionId: d.sessionId, turnId, holding: committed.replies.length > 0 });
    return committed.replies.map(({ id, text }) => ({ id, text }));
  }
}

/** A UUID from the session and first message: the same deferral always has the same Turn id. */
export function deferralTurnId(sessionId: string, firstMessageId: string): string {
  return derivedTurnId('understand-deferred', sessionId, firstMessageId);
}

/** A Turn id derived from what the turn records, so recording it twice finds the first. */
export function derivedTurnId(purpose: string, sessionId: string, messageId: string): string {
  const h = createHash('sha256').update(`${purpose}\n${sessionId}\n${messageId}`).digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function holdingReply(agent: LoadedAgent, firstMessageId: string): TurnCommit['replies'] {
  const text = agent.config.holdingMessage;
  return text ? [{ key: `holding:understand:${firstMessageId}`, text, kind: 'holding' }] : [];
}

function deferralUsage(error: ProviderError, retryAt: Date): TurnCommit['usage'] {
  const code = failureCode(error);
  const outcome: StepOutcome = {
    kind: 'idle',
    status: 'deferred',
    code,
    message: scrubSecretText(error.message),
    until: retryAt.toISOString(),
    at: new Date().toISOString(),
    llmCalls: 1,
  };
  return { llmCalls: 1, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, outcomeCodes: [code], outcomes: [outcome], trace: [], modelMs: 0, toolsMs: 0 };
}
