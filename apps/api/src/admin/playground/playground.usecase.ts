import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, TenantQuotas, type Prisma } from '@switchboard/db';
import type { AgentRunTurn } from '@switchboard/queue';
import { z } from 'zod';
import { ConflictError, UnprocessableError } from '../../common/errors';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { AgentRunsQueue } from '../agent-runs/agent-runs.queue';
import { refuseOverQuota } from '../../limits/refuse-over-quota';
import { resolveRunTarget, runTargetSchema, targetLabel } from '../agent-runs/run-target';

/** Turns one playground conversation keeps; start a new one after that. */
export const PLAYGROUND_MAX_TURNS = 100;

export const playgroundTurnBody = z.strictObject({
  /** Continue this conversation; absent starts a new one. */
  playgroundId: z.string().uuid().optional(),
  target: runTargetSchema.default('draft'),
  /** The editor's unsaved config, with `target: "unsaved"`. */
  config: z.unknown().optional(),
  message: z.string().trim().min(1).max(4000),
});
export type PlaygroundTurnBody = z.infer<typeof playgroundTurnBody>;

/** One stored playground turn: what the worker answered plus what ran. */
export type PlaygroundTurn = AgentRunTurn & {
  index: number;
  target: string;
  version: number | null;
  provider: { name: string; model: string };
  createdAt: string;
};

export interface PlaygroundView {
  id: string;
  agentId: string;
  target: string;
  turns: PlaygroundTurn[];
  createdAt: Date;
  updatedAt: Date;
}

export class PlaygroundTooLongError extends ConflictError {
  constructor() {
    super('playground-too-long', `A playground conversation keeps at most ${PLAYGROUND_MAX_TURNS} turns. Start a new conversation.`);
  }
}

export class PlaygroundTurnFailedError extends UnprocessableError {
  constructor(error: { code: string; message: string }) {
    super('playground-turn-failed', `The agent could not run: ${error.message}`, { engineCode: error.code });
  }
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * A playground turn: runs the agent's draft, an unsaved config or a version on a worker with the
 * real engine and tools, and keeps the conversation in PlaygroundSession — no channel, no key,
 * no Session, Turn or usage row, so customer counts never see it.
 */
@Injectable()
export class PlaygroundTurns {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: AgentRunsQueue,
    private readonly quotas: TenantQuotas,
  ) {}

  async send(user: AdminUser, agentId: string, body: PlaygroundTurnBody): Promise<{ playgroundId: string; turn: PlaygroundTurn }> {
    const prepared = await adminTransaction(this.prisma, user, async (tx) => {
      const agent = isUuid(agentId) ? await tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) }, select: { id: true, tenantId: true } }) : null;
      if (!agent) throw new ResourceNotFoundError('agent', agentId);
      const target = await resolveRunTarget(tx, agent, body.target, body.config);
      let row: { id: string; state: unknown; turns: unknown } | null = null;
      if (body.playgroundId) {
        row = await tx.playgroundSession.findFirst({ where: { id: body.playgroundId, agentId }, select: { id: true, state: true, turns: true } });
        if (!row) throw new ResourceNotFoundError('playground conversation', body.playgroundId);
      }
      return { agent, target, row };
    });
    const previous = (prepared.row?.turns ?? []) as PlaygroundTurn[];
    if (previous.length >= PLAYGROUND_MAX_TURNS) throw new PlaygroundTooLongError();
    // A playground turn calls the real model: a tenant over its monthly quota is refused here as
    // at every other door (429 quota-exceeded), so the playground is no way around the quota.
    await refuseOverQuota(this.quotas, prepared.agent.tenantId, prepared.agent.id);
    const playgroundId = prepared.row?.id ?? randomUUID();
    const answer = await this.runs.run({
      purpose: 'playground',
      tenantId: prepared.agent.tenantId,
      agentId,
      target: prepared.target,
      runId: playgroundId,
      mode: 'live',
      state: prepared.row?.state ?? null,
      history: historyOf(previous),
      messages: [body.message],
    });
    if (!answer.ok) throw new PlaygroundTurnFailedError(answer.error);
    const turn: PlaygroundTurn = {
      ...answer.turns[0],
      index: previous.length,
      target: targetLabel(body.target),
      version: answer.version,
      provider: answer.provider,
      createdAt: new Date().toISOString(),
    };
    await adminTransaction(this.prisma, user, async (tx) => {
      const data = { target: turn.target, state: json(answer.state), turns: json([...previous, turn]) };
      if (prepared.row) await tx.playgroundSession.update({ where: { id: playgroundId }, data });
      else await tx.playgroundSession.create({ data: { ...data, id: playgroundId, tenantId: prepared.agent.tenantId, agentId, createdById: user.id } });
    });
    return { playgroundId, turn };
  }

  async get(user: AdminUser, agentId: string, playgroundId: string): Promise<PlaygroundView> {
    const row =
      isUuid(agentId) && isUuid(playgroundId)
        ? await adminTransaction(this.prisma, user, (tx) =>
            tx.playgroundSession.findFirst({
              where: { id: playgroundId, agentId, ...tenantScope(user) },
              select: { id: true, agentId: true, target: true, turns: true, createdAt: true, updatedAt: true },
            }),
          )
        : null;
    if (!row) throw new ResourceNotFoundError('playground conversation', playgroundId);
    return { ...row, turns: row.turns as unknown as PlaygroundTurn[] };
  }
}

/** The conversation so far as the engine's history: each turn's message, then its replies. */
export function historyOf(turns: readonly Pick<AgentRunTurn, 'message' | 'replies'>[]): { role: 'user' | 'assistant'; content: string }[] {
  return turns.flatMap((t) => [{ role: 'user' as const, content: t.message }, ...t.replies.map((r) => ({ role: 'assistant' as const, content: r.text }))]);
}
