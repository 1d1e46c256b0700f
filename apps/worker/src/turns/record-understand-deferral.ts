import { Injectable, Logger } from '@nestjs/common';
import { failureCode, scrubSecretText, type ProviderError, type StepOutcome } from '@falai/agent';
import { AgentCatalog, type LoadedAgent } from '../agents/agent-catalog';
import type { TurnCommit } from './commit-turn';
import { CommitNoticeTurn, derivedTurnId } from './commit-notice-turn';
import { outcomeUsage } from './turn-record';

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
    private readonly agents: AgentCatalog,
    private readonly notices: CommitNoticeTurn,
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
    const committed = await this.notices.execute({
      tenantId: d.tenantId,
      sessionId: d.sessionId,
      turnId,
      parts: async (session) => {
        const agent = await this.agents.forAgent(d.tenantId, session.agentId);
        return {
          agentVersion: agent.version,
          provider: agent.provider,
          replies: holdingReply(agent, first),
          usage: outcomeUsage(deferralOutcome(d.error, d.retryAt), 1),
          queueWaitMs: 0,
        };
      },
    });
    if (!committed) return [];
    this.logger.log({ msg: 'understand deferral recorded', sessionId: d.sessionId, turnId, holding: committed.replies.length > 0 });
    return committed.replies.map(({ id, text }) => ({ id, text }));
  }
}

/** A UUID from the session and first message: the same deferral always has the same Turn id. */
export function deferralTurnId(sessionId: string, firstMessageId: string): string {
  return derivedTurnId('understand-deferred', sessionId, firstMessageId);
}

function holdingReply(agent: LoadedAgent, firstMessageId: string): TurnCommit['replies'] {
  const text = agent.config.holdingMessage;
  return text ? [{ key: `holding:understand:${firstMessageId}`, text, kind: 'holding' }] : [];
}

function deferralOutcome(error: ProviderError, retryAt: Date): StepOutcome {
  return {
    kind: 'idle',
    status: 'deferred',
    code: failureCode(error),
    message: scrubSecretText(error.message),
    until: retryAt.toISOString(),
    at: new Date().toISOString(),
    llmCalls: 1,
  };
}
