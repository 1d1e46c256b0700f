import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { isProviderError, TurnInputError, type ScheduledWake, type Session, type TurnInput, type TurnResult } from '@falai/agent';
import { defaultFallbackMessage } from '@switchboard/agent-config';
import { PrismaService, quotaOwner, TenantQuotas } from '@switchboard/db';
import type { FlowInput, TurnStatus } from '@switchboard/queue';
import { AgentCatalog, type LoadedAgent } from '../agents/agent-catalog';
import { MAX_CONFLICT_REPLAYS } from '../config/worker-settings';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { CommitTurn, type CommittedTurn, type OutboundReply, type TurnCommit } from './commit-turn';
import { recordCommittedTurn } from '../metrics/turn-metrics';
import { DeltaRelay } from './delta-relay';
import { LoadTurnState, type PendingMessage, type TurnState } from './load-turn-state';
import { SessionEvents } from './session-events';
import {
  MessageAlreadyAnsweredError,
  SessionLeaseLostError,
  SessionVersionConflictError,
  TenantQuotaExceededError,
  TenantSuspendedError,
  TurnReplayLimitError,
  TurnStreamEndedError,
  UnderstandDeferredError,
} from './turn-errors';
import { permanentFailureCode } from './turn-failure';
import { planFailure, planFromResult, planHandedOff, turnStatus, type TurnBase } from './turn-plan';
import { WakeScheduler } from '../wakes/wake-scheduler';
import { AgentModelHealth } from './agent-model-health';

export type { PendingMessage } from './load-turn-state';

/**
 * What a turn answers: customer messages (one, or a merged burst), a scheduled wake, or a flow
 * input the API stored as a Wake row (`key`, marked fired by the commit): an event or a start.
 */
export type TurnTrigger =
  | { kind: 'messages'; messages: PendingMessage[] }
  | { kind: 'wake'; key: string; at: number }
  | { kind: 'input'; key: string; at: number; input: FlowInput };

/** The engine records the turn's input id; a merged turn records every message's id. */
function recordInputs(session: Session, ids: string[]): void {
  const seen = new Set(session.inputs);
  session.inputs = [...session.inputs, ...ids.filter((id) => !seen.has(id))].slice(-50);
}

/**
 * One engine turn and its commit: load the session and its agent, run the turn, commit, publish,
 * schedule the wakes it asked for. A lost version check replays the turn on the fresh state; a
 * message someone else answered, or a wake no run waits on, ends quietly (null). Failures no
 * retry can fix are committed as failed turns (with the agent's fallback message when set) so
 * a message never loops through the queue forever. A tenant over its monthly quota gets no model
 * call: the turn commits failed with the outcome `quota-exceeded` and the fallback message.
 */
@Injectable()
export class RunTurn {
  private readonly logger = new Logger(RunTurn.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly agents: AgentCatalog,
    private readonly turnState: LoadTurnState,
    private readonly commit: CommitTurn,
    private readonly events: SessionEvents,
    private readonly wakes: WakeScheduler,
    private readonly quotas: TenantQuotas,
    private readonly modelHealth: AgentModelHealth,
  ) {}

  /**
   * `lease`: the session lease the caller holds; a turn whose lease lapsed never commits.
   * `opts.state`: the session's state when the caller read it already (the drain's claim-and-load,
   * or the previous turn's commit); a replay after a version conflict reads it afresh.
   * `opts.loadNext`: the caller goes on to the next queued message; the commit reads its state.
   */
  async execute(
    tenantId: string,
    sessionId: string,
    trigger: TurnTrigger,
    lease?: { readonly isHeld: boolean },
    opts: { state?: TurnState; loadNext?: boolean } = {},
  ): Promise<CommittedTurn | null> {
    const firstStart = Date.now();
    const what = describe(trigger);
    for (let replay = 0; replay <= MAX_CONFLICT_REPLAYS; replay++) {
      const startedAt = Date.now();
      const loaded = replay === 0 && opts.state ? opts.state : await this.turnState.execute(tenantId, sessionId);
      const turnId = randomUUID();
      this.logger.log({ msg: 'turn started', sessionId, ...what, turnId, replay, at: startedAt });
      const relay = new DeltaRelay((delta) => void this.events.publish(sessionId, { type: 'delta', turnId, delta }));
      try {
        const committed = await this.attempt(loaded, trigger, turnId, startedAt, firstStart, relay, lease, opts.loadNext);
        if (committed !== 'replay') return committed;
      } finally {
        // A turn that did not commit still sends the text it streamed (a no-op after a commit).
        relay.flush();
      }
    }
    throw new TurnReplayLimitError(sessionId, MAX_CONFLICT_REPLAYS);
  }

  /** One attempt of the turn: plan, commit, publish. 'replay' after a session version conflict. */
  private async attempt(
    loaded: TurnState,
    trigger: TurnTrigger,
    turnId: string,
    startedAt: number,
    firstStart: number,
    relay: DeltaRelay,
    lease?: { readonly isHeld: boolean },
    loadNext = false,
  ): Promise<CommittedTurn | null | 'replay'> {
    const { tenantId, id: sessionId } = loaded.session;
    const what = describe(trigger);
    const planned = await this.plan(loaded, trigger, turnId, startedAt, firstStart, relay);
    if (!planned) {
      this.logger.log({ msg: 'turn skipped: no run waits on this wake, or a person has the session', sessionId, ...what, turnId });
      if (trigger.kind !== 'messages') await this.cancelWake(sessionId, trigger.key);
      return null;
    }
    if (lease && !lease.isHeld) throw new SessionLeaseLostError(sessionId);
    try {
      const committed = await this.commit.execute(planned.commit, { loadNext });
      recordCommittedTurn(planned.commit, committed);
      const status = turnStatus(planned.commit);
      // The agent's model answered: a session of it waiting out a deferral need not (provider-backoff.ts).
      if (status.status === 'answered' && planned.commit.usage.llmCalls > 0) this.modelHealth.answered(planned.commit.agentId);
      this.logger.log({
        msg: 'turn committed',
        sessionId,
        ...what,
        answered: committed.answered,
        turnId,
        startedAt,
        at: Date.now(),
        llmCalls: planned.commit.usage.llmCalls,
        outcomeCodes: planned.commit.usage.outcomeCodes,
        totalMs: committed.totalMs,
      });
      // Not awaited: best effort (SessionEvents, which catches its errors). The text still
      // pending goes first; on Redis one connection keeps both in order, and they leave with
      // what the turn sends next (its lease's release) in one auto-pipelined write.
      relay.flush();
      this.publishCommitted(sessionId, turnId, committed, status);
      await this.wakes.schedule(tenantId, sessionId, planned.schedule);
      return committed;
    } catch (err) {
      if (err instanceof MessageAlreadyAnsweredError) {
        this.logger.log({ msg: 'turn dropped: message already answered', sessionId, ...what, turnId });
        return null;
      }
      if (err instanceof SessionVersionConflictError) {
        this.logger.warn({ msg: 'turn replayed: session version conflict', sessionId, ...what, turnId });
        return 'replay';
      }
      throw err;
    }
  }

  /**
   * Runs the turn through turnStream and relays its deltas on the session channel (the API's
   * stream endpoint), joined (DeltaRelay); the final result is what `turn` would return.
   * Publishes are not awaited one by one: one connection keeps them in order. What is pending
   * when the stream ends is held for the commit's event (`execute`): a reply that came in one
   * go costs no write of its own.
   */
  private async streamed(loaded: LoadedAgent, input: TurnInput<TurnContext>, sessionId: string, relay: DeltaRelay): Promise<TurnResult> {
    try {
      for await (const chunk of loaded.agent.turnStream(input)) {
        if ('delta' in chunk) relay.push(chunk.delta);
        else return chunk.result;
      }
    } finally {
      relay.hold();
    }
    throw new TurnStreamEndedError(sessionId);
  }

  /**
   * Tells the session's listeners (`?wait`, the stream) what the turn committed: replies visible
   * now at once, each delayed reply (the engine's `afterMs`) in its own event when it becomes visible.
   */
  private publishCommitted(sessionId: string, turnId: string, committed: CommittedTurn, how: { status: TurnStatus; retryAt?: string }): void {
    const now = committed.replies.filter((r) => r.visibleAt === undefined).map(({ id, text }) => ({ id, text }));
    for (const r of committed.replies) {
      if (r.visibleAt === undefined) continue;
      this.events.publishAt(r.visibleAt, sessionId, { type: 'committed', turnId, answered: [], replies: [{ id: r.id, text: r.text }] });
    }
    void this.events.publish(sessionId, { type: 'committed', turnId, answered: committed.answered, replies: now, ...how });
  }

  private async cancelWake(sessionId: string, key: string): Promise<void> {
    await this.prisma.wake.updateMany({ where: { sessionId, key, status: 'scheduled' }, data: { status: 'cancelled' } });
  }

  /** Runs the engine and shapes the commit; null when there is nothing to commit (a stale wake). */
  private async plan(
    { session, history, tenantSuspended, quotaLimits, agent, providerBackoff }: TurnState,
    trigger: TurnTrigger,
    turnId: string,
    startedAt: number,
    firstStart: number,
    relay: DeltaRelay,
  ): Promise<{ commit: TurnCommit; schedule: ScheduledWake[] } | null> {
    const state = (session.state as Session | null) ?? null;
    const firstId = trigger.kind === 'messages' ? trigger.messages[0].id : undefined;
    const fallbackKey = trigger.kind === 'messages' ? `fallback:${firstId}` : `fallback:${trigger.key}`;
    const context: TurnContext = { tenantId: session.tenantId, sessionId: session.id, turnId, ...(firstId && { messageId: firstId }) };
    let loaded: LoadedAgent | undefined;
    const base = (): TurnBase => ({
      turnId,
      tenantId: session.tenantId,
      sessionId: session.id,
      channelId: session.channelId,
      agentId: session.agentId,
      agentVersion: loaded?.version ?? null,
      provider: loaded?.provider ?? { name: 'none', model: 'none' },
      answered: trigger.kind === 'messages' ? trigger.messages.map((m) => m.id) : [],
      expectedVersion: session.version,
      ...(trigger.kind !== 'messages' && { firedWake: trigger.key }),
      queueWaitMs:
        trigger.kind === 'messages' ? firstStart - trigger.messages[0].createdAt.getTime() : Math.max(0, firstStart - trigger.at),
      startedAt,
    });
    // Every agent has one (the loader fills the default); an agent that could not be loaded has its stored or default text.
    const fallback = async (): Promise<OutboundReply> => ({
      key: fallbackKey,
      text: loaded
        ? (loaded.config.fallbackMessage ?? defaultFallbackMessage(loaded.config))
        : await this.agents.fallbackMessage(session.tenantId, session.agentId),
      kind: 'fallback',
    });

    // A person has the conversation: messages are recorded, wakes are dropped, the bot stays quiet.
    // Events and starts still run silenced (the engine's `silent`): do, if and wait steps go on.
    if (session.status === 'handed_off' && trigger.kind !== 'input') {
      return trigger.kind === 'messages' ? { commit: planHandedOff(base(), state), schedule: [] } : null;
    }

    let result: TurnResult;
    try {
      loaded = await this.agents.forAgent(session.tenantId, session.agentId, agent);
      // Suspended after the turn was queued: read with the session for every turn (no cache), so a
      // suspension stops the very next turn and a reactivation lets it run. The customer who wrote
      // gets the fallback message, as over quota; wakes, events and starts end without a reply.
      if (tenantSuspended) {
        const err = new TenantSuspendedError(session.tenantId);
        this.logger.warn({ msg: 'turn refused: tenant suspended', sessionId: session.id, ...describe(trigger), turnId });
        const reply = trigger.kind === 'messages' && session.status !== 'handed_off' ? await fallback() : undefined;
        return { commit: planFailure(base(), state, err.code, err, reply), schedule: [] };
      }
      // Every attempt of every kind of turn passes here before the engine's first model call.
      const quota = await this.quotas.verdict(session.tenantId, session.agentId, quotaLimits);
      if (quota.exceeded) {
        const err = new TenantQuotaExceededError(quota.exceeded, quota.limit!, quota.resetsAt);
        this.logger.warn({ msg: `turn refused: ${quotaOwner(quota.exceeded)} over its monthly quota`, sessionId: session.id, ...describe(trigger), turnId, quota: quota.exceeded });
        // A silenced turn (events in a handed-off session) stays silent.
        return { commit: planFailure(base(), state, err.code, err, session.status === 'handed_off' ? undefined : await fallback()), schedule: [] };
      }
      const input: TurnInput<TurnContext> = {
        sessionId: session.id,
        session: state ?? undefined,
        history,
        context,
      };
      if (trigger.kind === 'wake') input.wake = trigger.key;
      else if (trigger.kind === 'input') {
        applyFlowInput(input, trigger.input);
        if (session.status === 'handed_off') input.silent = true;
      } else {
        input.message = trigger.messages.map((m) => m.text).join('\n');
        // A merged burst runs under its first message's id, so a replay builds the same keys.
        input.id = firstId;
      }
      result = await this.streamed(loaded, input, session.id, relay);
    } catch (err) {
      // A start naming a flow the agent no longer has (published away after the API accepted it).
      if (trigger.kind === 'input' && err instanceof TurnInputError) {
        this.logger.warn({ msg: 'flow input refused by the engine', sessionId: session.id, input: trigger.key, error: err.message });
        return null;
      }
      const code = permanentFailureCode(err);
      // The model is down for now: the job waits; for customer messages the deferral is recorded once.
      if (!code && trigger.kind === 'messages' && isProviderError(err)) {
        throw new UnderstandDeferredError(
          trigger.messages.map((m) => m.id),
          err,
          providerBackoff?.deferrals ?? 0,
        );
      }
      if (!code) throw err;
      this.logger.error({ msg: 'turn failed for good', sessionId: session.id, turnId, code, error: (err as Error).message });
      return { commit: planFailure(base(), state, code, err as Error, await fallback()), schedule: [] };
    }
    if (trigger.kind !== 'messages' && !result.changed) return null;
    if (trigger.kind === 'messages' && trigger.messages.length > 1) recordInputs(result.session, trigger.messages.map((m) => m.id));
    const extra = { fallback: await fallback(), holding: loaded.config.holdingMessage, customerWaits: trigger.kind === 'messages' };
    return { commit: planFromResult(base(), result, extra), schedule: result.schedule };
  }
}

function describe(trigger: TurnTrigger): Record<string, unknown> {
  if (trigger.kind === 'messages') return { messageId: trigger.messages[0].id };
  return trigger.kind === 'wake' ? { wake: trigger.key } : { input: trigger.key };
}

/** An event → `turn({ event, key, data })`; a start → `turn({ start: { flow, key } })`. */
function applyFlowInput(input: TurnInput<TurnContext>, flowInput: FlowInput): void {
  if (flowInput.kind === 'event') {
    input.event = flowInput.event;
    input.key = flowInput.key;
    if (flowInput.data) input.data = flowInput.data;
  } else {
    input.start = { flow: flowInput.flow, key: flowInput.key };
  }
}
