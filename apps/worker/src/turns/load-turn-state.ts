import { Injectable } from '@nestjs/common';
import type { HistoryItem } from '@falai/agent';
import { PrismaService, type QuotaLimits } from '@switchboard/db';
import type { AgentStamp } from '../agents/agent-catalog';
import type { LeaseTicket } from '../lease/session-lease';
import type { ProviderBackoff } from './provider-backoff';
import { HISTORY_LIMIT } from '../config/worker-settings';
import { TurnSessionMissingError } from './turn-errors';

/** A queued inbound message a turn answers. */
export interface PendingMessage {
  id: string;
  text: string;
  /** When the API accepted it: the start of its queue wait. */
  createdAt: Date;
}

/** The session row a turn runs on. */
export interface TurnSessionRow {
  id: string;
  tenantId: string;
  status: 'active' | 'handed_off';
  channelId: string;
  agentId: string;
  state: unknown;
  version: number;
}

export interface TurnState {
  session: TurnSessionRow;
  /** The conversation so far, oldest first, as the engine's history. */
  history: HistoryItem[];
  /** The tenant is suspended (read with the session, fresh for every turn): the turn is refused. */
  tenantSuspended: boolean;
  /** Which monthly limits the tenant and the agent have (read with the session): none, no quota query. */
  quotaLimits: QuotaLimits;
  /** Which version of the session's agent a turn runs now (null: no such agent), AgentCatalog's cache key. */
  agent: AgentStamp | null;
  /** The session's wait for its model since its last commit (null: none). */
  providerBackoff: ProviderBackoff | null;
}

/**
 * What the draining worker reads first, in the same one round trip as the turn's state: whether
 * the job's own message still waits, and the session's next queued inbound message.
 */
export interface SessionClaim {
  /** The job's own message is answered, failed or gone (always false without one). */
  ownSettled: boolean;
  /** The session's oldest queued inbound message, null when none waits. */
  next: PendingMessage | null;
  /** The state the next turn starts from; undefined when the session is gone. */
  state?: TurnState;
}

/** A queued message as sb_turn_state and sb_commit_turn return it: createdAt in epoch milliseconds. */
export interface PendingMessageJson {
  id: string;
  text: string;
  createdAt: number;
}

/** What sb_turn_state returns (migration 20261206060000): times in epoch milliseconds. */
export interface TurnStateJson extends TurnSessionRow {
  history: HistoryItem[];
  tenantSuspended: boolean;
  tenantLimited: boolean;
  agentBudgeted: boolean;
  agentFound: boolean;
  agentPublishedVersion: number | null;
  agentUpdatedAt: number | null;
  agentArchivedAt: number | null;
  ownStatus: string | null;
  next: PendingMessageJson | null;
  providerBackoff: ProviderBackoff | null;
}

/**
 * What a turn starts from, in one round trip: the session row (its state and version), whether
 * its tenant is suspended, which monthly limits exist, which version of its agent runs, and the
 * conversation before the message being answered. The history is the messages of committed
 * turns only (queued messages are not part of it yet), turn by turn, each turn's inbound before
 * its replies: ordering by turn rather than by `seq` matters for bursts, whose first replies are
 * stored after the later messages arrived. The last HISTORY_LIMIT messages.
 *
 * The query lives in the database function sb_turn_state, because the commit of a sequential
 * drain's turn reads the next turn's state with it too (CommitTurn, `nextState`): a drain's turns
 * after its first cost no claim of their own.
 */
@Injectable()
export class LoadTurnState {
  constructor(private readonly prisma: PrismaService) {}

  async execute(tenantId: string, sessionId: string): Promise<TurnState> {
    const json = await this.read(tenantId, sessionId);
    if (!json) throw new TurnSessionMissingError(sessionId);
    return turnStateOf(json);
  }

  /**
   * The drain's claim-and-load: the turn's state as `execute` reads it, plus whether the job's own
   * message (`ownMessageId`) still waits and the session's next queued message, in one round trip.
   * With the own message settled and nothing else queued the history is not read: the job ends
   * without a turn.
   */
  async claim(tenantId: string, sessionId: string, ownMessageId?: string): Promise<SessionClaim> {
    return claimOf(await this.read(tenantId, sessionId, ownMessageId), ownMessageId);
  }

  /**
   * `claim`, with the session's lease taken in the same statement (Postgres mode, where the lease
   * is a row of this database: sb_lease_and_turn_state). Null when a live holder has the lease:
   * nothing was read. The statement reads the claim only once the lease is taken, on a snapshot
   * of its own, so it sees everything the previous holder committed.
   */
  async claimLeased(ticket: LeaseTicket, tenantId: string, sessionId: string, ownMessageId?: string): Promise<SessionClaim | null> {
    const [row] = await this.prisma.queryPrepared<{ leased: boolean; state: TurnStateJson | null }>(
      'sb_lease_and_turn_state',
      leaseAndTurnStateCall(ticket, tenantId, sessionId, ownMessageId),
    );
    return row.leased ? claimOf(row.state, ownMessageId) : null;
  }

  private async read(tenantId: string, sessionId: string, ownMessageId?: string): Promise<TurnStateJson | null> {
    const [row] = await this.prisma.queryPrepared<{ state: TurnStateJson | null }>('sb_turn_state', turnStateCall(tenantId, sessionId, ownMessageId));
    return row.state;
  }
}

/** The drain's claim from what sb_turn_state read (null: no such session). */
function claimOf(json: TurnStateJson | null, ownMessageId: string | undefined): SessionClaim {
  // No session (deleted with its messages): nothing waits, the own message included.
  if (!json) return { ownSettled: true, next: null };
  const ownSettled = ownMessageId !== undefined && json.ownStatus !== 'queued';
  return { ownSettled, next: pendingOf(json.next), state: turnStateOf(json) };
}

/** The session's next queued message as sb_turn_state and sb_commit_turn return it. */
export function pendingOf(next: PendingMessageJson | null): PendingMessage | null {
  return next && { id: next.id, text: next.text, createdAt: new Date(next.createdAt) };
}

/** A turn's state from sb_turn_state's JSON. */
export function turnStateOf(json: TurnStateJson): TurnState {
  const {
    history,
    tenantSuspended,
    tenantLimited,
    agentBudgeted,
    agentFound,
    agentPublishedVersion,
    agentUpdatedAt,
    agentArchivedAt,
    ownStatus: _own,
    next: _next,
    providerBackoff,
    ...session
  } = json;
  const agent = agentFound
    ? { publishedVersion: agentPublishedVersion, updatedAt: new Date(agentUpdatedAt!), archivedAt: agentArchivedAt === null ? null : new Date(agentArchivedAt) }
    : null;
  const backoff = providerBackoff && { retryAt: providerBackoff.retryAt, deferredAt: providerBackoff.deferredAt, deferrals: providerBackoff.deferrals };
  return { session, history, tenantSuspended, quotaLimits: { tenant: tenantLimited, agent: agentBudgeted }, agent, providerBackoff: backoff };
}

/**
 * The statement behind LoadTurnState: sb_turn_state (migration 20261206060000), run as a prepared
 * statement. The function's query is planned once per connection like a prepared statement's,
 * and after a few calls the connection keeps a generic plan, made without the values:
 * `load-turn-state.spec.ts` reads the pages both plans touch. Its cost does not grow with the
 * conversation: the last HISTORY_LIMIT turns come from the ("sessionId", "createdAt") index and
 * their messages, turn by turn (a LATERAL with its own LIMIT, which the planner cannot flatten
 * into a scan of every message of the tenant), from the ("turnId") index. The LATERAL has no
 * tenant filter: its turns are the session's, itself checked against the tenant, and a filter
 * there can tempt the planner onto the tenant's index, so a session with ten thousand earlier
 * messages reads what a fresh one does. The turns are matched on the session id as a value, not
 * as the outer row's column: planned with the value, a long conversation is among the column's
 * most common values and the planner reads its last turns from the index; matched on the column
 * it assumed an average session of a few dozen turns and read all 5,000 of a long one to sort
 * them (a CI run). Every turn holds at least the inbound it answered, so HISTORY_LIMIT turns
 * always cover the last HISTORY_LIMIT messages. Exported so a test can read its plans.
 */
export function turnStateCall(tenantId: string, sessionId: string, ownMessageId?: string): { text: string; values: unknown[] } {
  return {
    text: 'SELECT sb_turn_state($1::uuid, $2::uuid, $3::uuid, $4::int) AS state',
    values: [tenantId, sessionId, ownMessageId ?? null, HISTORY_LIMIT],
  };
}

/** The statement behind LoadTurnState.claimLeased: sb_lease_and_turn_state (migration 20261206150000), prepared. */
export function leaseAndTurnStateCall(ticket: LeaseTicket, tenantId: string, sessionId: string, ownMessageId?: string): { text: string; values: unknown[] } {
  return {
    text: 'SELECT leased, state FROM sb_lease_and_turn_state($1::text, $2::text, $3::int, $4::uuid, $5::uuid, $6::uuid, $7::int)',
    values: [ticket.key, ticket.token, ticket.ttlMs, tenantId, sessionId, ownMessageId ?? null, HISTORY_LIMIT],
  };
}
