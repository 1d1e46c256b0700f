import type { PrismaService } from '@switchboard/db';
import type { AgentCatalog } from '../agents/agent-catalog';
import type { Lease, SessionLeases } from '../lease/session-lease';
import { DrainSession } from './drain-session';
import type { LoadTurnState, PendingMessage, SessionClaim, TurnState } from './load-turn-state';
import type { RetireAnsweredJobs } from './retire-answered-jobs';
import type { RunTurn } from './run-turn';
import { AgentModelHealth } from './agent-model-health';
import { SessionBackoffError } from './turn-errors';

// The drain retires the jobs of the messages it answers turn by turn, while they most likely wait
// delayed, instead of once at its end: a long burst's jobs used to keep coming back meanwhile.

const message = (id: string): PendingMessage => ({ id, text: id, createdAt: new Date(0) });
const state = { session: { agentId: 'a' }, agent: null } as unknown as TurnState;

function drainOver(queued: string[], claimed: { state?: TurnState; ownSettled?: boolean } = {}, modelHealth = new AgentModelHealth()) {
  const events: string[] = [];
  const waiting = [...queued];
  const turnState = {
    claim: jest.fn(
      async (): Promise<SessionClaim> => ({ ownSettled: claimed.ownSettled ?? false, next: waiting.length ? message(waiting[0]) : null, state: claimed.state ?? state }),
    ),
  } as unknown as LoadTurnState;
  const runTurn = {
    execute: jest.fn(async (_t: string, _s: string, trigger: { messages: PendingMessage[] }) => {
      const id = trigger.messages[0].id;
      events.push(`commit ${id}`);
      waiting.shift();
      return { answered: [id], next: waiting.length ? message(waiting[0]) : null };
    }),
  } as unknown as RunTurn;
  const agents = { forAgent: async () => ({ config: {} }) } as unknown as AgentCatalog;
  const retire = {
    execute: jest.fn(async (ids: string[]) => {
      events.push(`retire ${ids.join(',')}`);
      return ids.length;
    }),
  };
  const drain = new DrainSession({} as PrismaService, {} as SessionLeases, runTurn, agents, turnState, retire as unknown as RetireAnsweredJobs, modelHealth);
  return { drain, events, retire, runTurn };
}

const lease = { isHeld: true } as Lease;

describe('DrainSession: retiring answered jobs', () => {
  it('retires each answered message’s job right after its turn commits, never the own one', async () => {
    const { drain, events } = drainOver(['m1', 'm2', 'm3']);

    const result = await drain.execute({ tenantId: 't', sessionId: 's', ownMessageId: 'm1', lease, stopping: () => false });

    expect(result).toEqual({ turns: 3, ownSettled: true, answered: ['m1', 'm2', 'm3'] });
    expect(events).toEqual(['commit m1', 'retire ', 'commit m2', 'retire m2', 'commit m3', 'retire m3']);
  });

  it('retires every answered message of a wake’s drain (it has no own message)', async () => {
    const { drain, retire } = drainOver(['m1', 'm2']);
    await drain.execute({ tenantId: 't', sessionId: 's', lease, stopping: () => false });
    expect(retire.execute.mock.calls).toEqual([[['m1']], [['m2']]]);
  });
});

describe('DrainSession: a session waiting for its model', () => {
  const now = Date.now();
  const waitingState = { ...state, providerBackoff: { retryAt: now + 5_000, deferredAt: now - 1_000, deferrals: 2 } } as TurnState;

  it("leaves the turn to the session's retry when the own message was waiting at the deferral", async () => {
    const { drain, runTurn } = drainOver(['m1', 'm2'], { state: waitingState });
    const run = drain.execute({ tenantId: 't', sessionId: 's', ownMessageId: 'm2', acceptedAt: now - 2_000, lease, stopping: () => false });
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionBackoffError);
    expect(err).toMatchObject({ retryAt: now + 5_000 });
    expect((err as SessionBackoffError).waitMs).toBeGreaterThanOrEqual(4_000);
    expect(runTurn.execute).not.toHaveBeenCalled();
  });

  it('runs the turn for a message accepted after the deferral (the model may be back)', async () => {
    const { drain } = drainOver(['m1', 'm2'], { state: waitingState });
    const result = await drain.execute({ tenantId: 't', sessionId: 's', ownMessageId: 'm2', acceptedAt: now, lease, stopping: () => false });
    expect(result).toEqual({ turns: 2, ownSettled: true, answered: ['m1', 'm2'] });
  });

  it("runs the turn once the agent's model answered in this process after the deferral", async () => {
    const health = new AgentModelHealth();
    health.answered('a', now);
    const { drain } = drainOver(['m1', 'm2'], { state: waitingState }, health);
    const result = await drain.execute({ tenantId: 't', sessionId: 's', ownMessageId: 'm2', acceptedAt: now - 2_000, lease, stopping: () => false });
    expect(result).toEqual({ turns: 2, ownSettled: true, answered: ['m1', 'm2'] });
  });

  it('ends a job whose own message is settled, leaving the waiting ones to the retry', async () => {
    const { drain, runTurn } = drainOver(['m1'], { state: waitingState, ownSettled: true });
    const result = await drain.execute({ tenantId: 't', sessionId: 's', ownMessageId: 'm0', acceptedAt: now - 2_000, lease, stopping: () => false });
    expect(result).toEqual({ turns: 0, ownSettled: true, answered: [] });
    expect(runTurn.execute).not.toHaveBeenCalled();
  });
});
