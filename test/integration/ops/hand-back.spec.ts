import { conciergeAgentConfig } from '@switchboard/agent-config';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { eventually } from '../worker/support/private-api';
import { request, startOpsStack, tokenFor, type OpsStack } from './support/ops-stack';

// Hand-back end to end with a real worker: while a person has the session the bot records the
// customer's messages without answering; after POST /hand-back it answers from the next message
// on, and what arrived during the hand-off stays unanswered (the person had that conversation).

jest.setTimeout(240_000);

interface Posted {
  messageId: string;
  sessionId: string;
  status: string;
  replies?: { id: string; text: string }[];
}

describe('session hand-back', () => {
  let stack: OpsStack;
  let fx: TenantFixture;
  let other: TenantFixture;
  let operator: string;
  let viewer: string;
  let otherOwner: string;

  beforeAll(async () => {
    stack = await startOpsStack({});
    fx = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    other = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    operator = await tokenFor(stack, 'operator', fx.tenant.id);
    viewer = await tokenFor(stack, 'viewer', fx.tenant.id);
    otherOwner = await tokenFor(stack, 'owner', other.tenant.id);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function post(session: string, text: string): Promise<Posted> {
    const res = await request<Posted>(stack, fx.apiKey, 'POST', '/v1/messages?wait=30', { session, text });
    expect(res.status).toBe(200);
    return res.body;
  }

  const handBack = (token: string, id: string) => request<{ id: string; status: string; error?: { code: string } }>(stack, token, 'POST', `/v1/admin/sessions/${id}/hand-back`);

  it('keeps hand-off messages unanswered and answers from the next message after a hand-back', async () => {
    const key = `hb-${uniqueSuffix()}`;
    const first = await post(key, 'Quero um quarto em Curitiba');
    expect(first.replies).toHaveLength(1);
    const sessionId = first.sessionId;

    // What handoff_to_human does: the session goes to a person.
    await stack.prisma.session.update({ where: { id: sessionId }, data: { status: 'handed_off' } });
    const during = await post(key, 'Oi? Tem alguém aí?');
    const recorded = await eventually(async () => {
      const m = await stack.prisma.message.findUniqueOrThrow({ where: { id: during.messageId } });
      return m.status === 'answered' && m;
    });
    const handedOffTurn = await stack.prisma.turn.findUniqueOrThrow({ where: { id: recorded.turnId! } });
    expect(handedOffTurn.outcomeCodes).toEqual(['handed-off']);
    expect(await stack.prisma.message.count({ where: { turnId: handedOffTurn.id, direction: 'outbound' } })).toBe(0);

    // A viewer may not hand back, nor another tenant's owner (404: the session is not theirs); nothing changes.
    expect((await handBack(viewer, sessionId)).status).toBe(403);
    const foreign = await handBack(otherOwner, sessionId);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'not-found']);
    expect((await stack.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe('handed_off');

    const back = await handBack(operator, sessionId);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id: sessionId, status: 'active' });
    const again = await handBack(operator, sessionId);
    expect([again.status, again.body.error?.code]).toEqual([409, 'session-not-handed-off']);

    const next = await post(key, 'Quero um quarto em Curitiba');
    expect(next.replies?.length).toBeGreaterThan(0);

    // The message from the hand-off was not answered after the fact: replies belong to messages 1 and 3 only.
    const inbound = await stack.prisma.message.findMany({ where: { sessionId, direction: 'inbound' }, orderBy: { seq: 'asc' } });
    const outbound = await stack.prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
    expect(new Set(outbound.map((m) => m.turnId))).toEqual(new Set([inbound[0].turnId, inbound[2].turnId]));
    expect(outbound.some((m) => m.turnId === inbound[1].turnId)).toBe(false);

    const audit = await stack.prisma.auditLog.findMany({ where: { tenantId: fx.tenant.id, action: 'session.hand-back' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entityType: 'session', entityId: sessionId, before: { status: 'handed_off' }, after: { status: 'active' } });
  });

  it('answers 404 for an unknown or malformed session id', async () => {
    for (const id of ['3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52', 'not-a-uuid']) {
      const res = await handBack(operator, id);
      expect([res.status, res.body.error?.code]).toEqual([404, 'not-found']);
    }
  });
});
