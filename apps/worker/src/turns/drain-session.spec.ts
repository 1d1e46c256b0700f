import type { PrismaService } from '@switchboard/db';
import type { AgentCatalog } from '../agents/agent-catalog';
import type { Lease } from '../lease/session-lease';
import { DrainSession } from './drain-session';
import type { LoadTurnState, PendingMessage, SessionClaim, TurnState } from './load-turn-state';
import type { RetireAnsweredJobs } from './retire-answered-jobs';
import type { RunTurn } from './run-turn';

// The drain retires the jobs of the messages it answers turn by turn, while they most likely wait
// delayed, instead of once at its end: a long burst's jobs used to keep coming back meanwhile.

const message = (id: string): PendingMessage => ({ id, text: id, createdAt: new Date(0) });
const state = { session: { agentId: 'a' }, agent: null } as unknown as TurnState;

function drainOver(queued: string[]) {
  const events: string[] = [];
  const waiting = [...queued];
  const turnState = {
    claim: jest.fn(async (): Promise<SessionClaim> => ({ ownSettled: false, next: waiting.length ? message(waiting[0]) : null, state })),
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
  const drain = new DrainSession({} as PrismaService, runTurn, agents, turnState, retire as unknown as RetireAnsweredJobs);
  return { drain, events, retire };
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
