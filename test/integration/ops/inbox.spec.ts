import { conciergeAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { createWidgetChannel } from '../../support/widget';
import { eventually } from '../worker/support/private-api';
import { request, startOpsStack, tokenFor, type OpsStack } from './support/ops-stack';
import { WebhookReceiver } from './support/webhook-receiver';

// The inbox end to end with a real API, worker and webhook receiver: an operator takes a
// session over (the agent goes silent, the customer's messages are still stored and counted as
// unread), replies through the channel's webhook exactly once per send, writes a note the
// customer never gets, and hands back; the agent answers the next message.

jest.setTimeout(240_000);

/** An agent whose model hands the conversation to a person when asked for one. */
const handOffConfig: AgentConfig = {
  provider: {
    kind: 'scripted',
    model: 'desk-script',
    scripted: {
      rules: [
        { call: 'speak', round: 1, match: 'humano', toolCalls: [{ name: 'handoff_to_human', arguments: { motivo: 'pediu um humano' } }] },
        { call: 'speak', afterTool: 'handoff_to_human', reply: 'Vou chamar um atendente.' },
        { call: 'speak', reply: 'Oi! Como posso ajudar?' },
      ],
    },
  },
  fields: {},
  flows: [],
  tools: ['handoff_to_human'],
};

interface Posted {
  messageId: string;
  sessionId: string;
  replies?: { id: string; text: string }[];
}
interface ErrorBody {
  error?: { code: string };
}
interface InboxItem {
  id: string;
  tenantId: string;
  unread: number;
  takenOverBy: string | null;
  takenOverByMe: boolean;
}
interface Conversation {
  session: { status: string; takenOverByMe: boolean; unread: number };
  messages: { id: string; direction: string; kind: string | null; text: string; turnId: string | null; turn: { id: string; model: string; failure: string | null; outcomeCodes: string[] } | null }[];
  notes: { text: string; author: string | null }[];
}

describe('the inbox', () => {
  const receiver = new WebhookReceiver();
  let stack: OpsStack;
  let fx: TenantFixture;
  let operator: string;
  let otherOperator: string;
  let viewer: string;
  let otherOwner: string;

  beforeAll(async () => {
    await receiver.start();
    stack = await startOpsStack({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200', DELIVERY_BACKOFF_MS: '50' });
    fx = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    const other = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    const owner = await tokenFor(stack, 'owner', fx.tenant.id);
    operator = await tokenFor(stack, 'operator', fx.tenant.id);
    otherOperator = await tokenFor(stack, 'operator', fx.tenant.id);
    viewer = await tokenFor(stack, 'viewer', fx.tenant.id);
    otherOwner = await tokenFor(stack, 'owner', other.tenant.id);
    const set = await request(stack, owner, 'PUT', `/v1/admin/channels/${fx.channel.id}`, { webhookUrl: `${receiver.url}/hooks` });
    expect(set.status).toBe(200);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  });

  async function post(session: string, text: string): Promise<Posted> {
    const res = await request<Posted>(stack, fx.apiKey, 'POST', '/v1/messages?wait=30', { session, text });
    expect(res.status).toBe(200);
    return res.body;
  }
  const hookBodies = () => receiver.hits('/hooks').filter((h) => h.answered === 200).map((h) => JSON.parse(h.body) as { type: string; text?: string; messageId?: string; reason?: string; sessionId: string });
  const inbox = (token: string) => request<InboxItem[]>(stack, token, 'GET', '/v1/admin/inbox');
  const conversation = (token: string, id: string) => request<Conversation & ErrorBody>(stack, token, 'GET', `/v1/admin/inbox/${id}`);
  const act = <T = ErrorBody>(token: string, id: string, what: string, body?: unknown) => request<T & ErrorBody>(stack, token, 'POST', `/v1/admin/inbox/${id}/${what}`, body);
  const codeOf = (res: { status: number; body: ErrorBody }) => [res.status, res.body.error?.code];

  it('takes a session over, keeps the agent silent, replies through the webhook once, and hands back', async () => {
    const key = `inbox-${uniqueSuffix()}`;
    const first = await post(key, 'Quero um quarto em Curitiba');
    expect(first.replies?.length).toBeGreaterThan(0);
    const sessionId = first.sessionId;

    // Nobody may reply while the agent has it; viewers and other tenants may not take over.
    expect(codeOf(await act(operator, sessionId, 'replies', { text: 'Oi' }))).toEqual([409, 'session-not-taken-over']);
    expect((await act(viewer, sessionId, 'take-over')).status).toBe(403);
    expect(codeOf(await act(otherOwner, sessionId, 'take-over'))).toEqual([404, 'not-found']);
    expect(codeOf(await act(operator, 'not-a-uuid', 'take-over'))).toEqual([404, 'not-found']);
    expect((await stack.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe('active');

    const taken = await act<{ status: string }>(operator, sessionId, 'take-over');
    expect([taken.status, taken.body.status]).toEqual([200, 'handed_off']);
    expect((await act(operator, sessionId, 'take-over')).status).toBe(200); // one's own again: no change
    expect(codeOf(await act(otherOperator, sessionId, 'take-over'))).toEqual([409, 'session-taken-by-other']);
    expect(codeOf(await act(otherOperator, sessionId, 'replies', { text: 'Eu também' }))).toEqual([409, 'session-taken-by-other']);
    const takeOvers = await stack.prisma.auditLog.findMany({ where: { tenantId: fx.tenant.id, action: 'session.take-over', entityId: sessionId } });
    expect(takeOvers).toHaveLength(1);
    expect(takeOvers[0]).toMatchObject({ before: { status: 'active', takenOverById: null }, after: { status: 'handed_off' } });
    await eventually(async () => hookBodies().some((b) => b.type === 'session.handed_off' && b.sessionId === sessionId));

    // The customer writes while a person has it: stored, not answered by the agent, unread in the inbox.
    const during = await post(key, 'Oi? Tem alguém aí?');
    expect(during.replies ?? []).toEqual([]);
    const listed = (await inbox(operator)).body.find((i) => i.id === sessionId);
    expect(listed).toMatchObject({ unread: 1, takenOverByMe: true });
    expect((await inbox(otherOwner)).body.some((i) => i.id === sessionId)).toBe(false);
    const seen = await conversation(viewer, sessionId);
    const duringRow = seen.body.messages.find((m) => m.id === during.messageId);
    expect(duringRow?.turn?.outcomeCodes).toEqual(['handed-off']);
    const firstRow = seen.body.messages.find((m) => m.id === first.messageId);
    const firstTurn = await stack.prisma.turn.findUniqueOrThrow({ where: { id: firstRow!.turnId! } });
    expect(firstRow?.turn).toMatchObject({ id: firstTurn.id, provider: firstTurn.provider, model: firstTurn.model, failure: null });
    expect(firstTurn.model).not.toBe('');

    // Bad replies change nothing.
    for (const bad of [{ text: '   ' }, { text: 'x', extra: 1 }, { text: 'x'.repeat(4001) }, {}]) {
      expect(codeOf(await act(operator, sessionId, 'replies', bad))).toEqual([400, 'validation-failed']);
    }

    // The reply goes out through the channel's webhook, once, even when the console sends it twice.
    const clientKey = '6f1f3c2e-1f0e-4b8a-9d51-2f8f1a7c9b10';
    const sent = await act<{ id: string; delivered: string }>(operator, sessionId, 'replies', { text: 'Olá, aqui é a Ana. Posso ajudar?', clientKey });
    expect([sent.status, sent.body.delivered]).toEqual([201, 'queued']);
    const again = await act<{ id: string }>(operator, sessionId, 'replies', { text: 'Olá, aqui é a Ana. Posso ajudar?', clientKey });
    expect(again.body.id).toBe(sent.body.id);
    await eventually(async () => hookBodies().some((b) => b.messageId === sent.body.id));
    await new Promise((r) => setTimeout(r, 600)); // a few dispatcher rounds: nothing more arrives
    const replies = hookBodies().filter((b) => b.messageId === sent.body.id);
    expect(replies).toEqual([expect.objectContaining({ type: 'message.reply', text: 'Olá, aqui é a Ana. Posso ajudar?', sessionId })]);
    // Replying read the conversation.
    expect((await inbox(operator)).body.find((i) => i.id === sessionId)?.unread).toBe(0);

    // A note stays inside: in the conversation, never in a delivery or the customer's history.
    const note = await act<{ text: string }>(operator, sessionId, 'notes', { text: 'Cliente VIP, oferecer upgrade' });
    expect(note.status).toBe(201);
    expect(codeOf(await act(viewer, sessionId, 'notes', { text: 'x' }))).toEqual([403, 'forbidden']);
    const withNote = await conversation(operator, sessionId);
    expect(withNote.body.notes).toEqual([expect.objectContaining({ text: 'Cliente VIP, oferecer upgrade', author: 'operator user' })]);
    const history = await request<{ messages?: { text: string }[] }>(stack, fx.apiKey, 'GET', `/v1/sessions/${sessionId}/messages`);
    expect(JSON.stringify(history.body)).not.toContain('VIP');
    expect(JSON.stringify(history.body)).toContain('aqui é a Ana');
    expect(receiver.received.some((h) => h.body.includes('VIP'))).toBe(false);

    // Another customer message, then the read mark.
    await post(key, 'Quero a suíte');
    expect((await inbox(operator)).body.find((i) => i.id === sessionId)?.unread).toBe(1);
    expect((await act(operator, sessionId, 'read')).status).toBe(200);
    expect((await inbox(operator)).body.find((i) => i.id === sessionId)?.unread).toBe(0);

    // Hand back: the agent answers the next message; the session leaves the inbox.
    const back = await request<{ status: string }>(stack, operator, 'POST', `/v1/admin/sessions/${sessionId}/hand-back`);
    expect([back.status, back.body.status]).toEqual([200, 'active']);
    expect((await stack.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).takenOverById).toBeNull();
    expect((await inbox(operator)).body.some((i) => i.id === sessionId)).toBe(false);
    expect(codeOf(await act(operator, sessionId, 'replies', { text: 'tarde demais' }))).toEqual([409, 'session-not-taken-over']);
    const next = await post(key, 'Quero um quarto em Curitiba');
    expect(next.replies?.length).toBeGreaterThan(0);
  });

  it("lists a session the agent's hand-off tool handed over as waiting, unread from the customer's request, to its own tenant only", async () => {
    const desk = await createTenantFixture(stack.prisma, { agentConfig: handOffConfig });
    const deskOperator = await tokenFor(stack, 'operator', desk.tenant.id);
    const deskViewer = await tokenFor(stack, 'viewer', desk.tenant.id);
    const platformAdmin = await tokenFor(stack, 'platform_admin', null);
    const key = `handoff-${uniqueSuffix()}`;
    const say = async (text: string) => (await request<Posted>(stack, desk.apiKey, 'POST', '/v1/messages?wait=30', { session: key, text })).body;

    expect((await say('Oi')).replies?.map((r) => r.text)).toEqual(['Oi! Como posso ajudar?']);
    const asked = await say('Quero falar com um humano');
    expect(asked.replies?.map((r) => r.text)).toEqual(['Vou chamar um atendente.']);
    const sessionId = asked.sessionId;

    // Only the request for a person is unread: what the agent answered before is not the desk's to read.
    const waiting = (await inbox(deskViewer)).body.find((i) => i.id === sessionId);
    expect(waiting).toMatchObject({ takenOverBy: null, takenOverByMe: false, unread: 1 });
    // Tenant A's people never see tenant B's inbox, nor open, note or answer its conversations.
    expect((await inbox(operator)).body.some((i) => i.id === sessionId)).toBe(false);
    expect((await inbox(otherOwner)).body.some((i) => i.id === sessionId)).toBe(false);
    expect((await inbox(deskOperator)).body.every((i) => i.tenantId === desk.tenant.id)).toBe(true);
    expect(codeOf(await conversation(operator, sessionId))).toEqual([404, 'not-found']);
    expect(codeOf(await act(operator, sessionId, 'notes', { text: 'espiando' }))).toEqual([404, 'not-found']);
    expect(codeOf(await act(operator, sessionId, 'replies', { text: 'espiando' }))).toEqual([404, 'not-found']);
    expect(codeOf(await act(operator, sessionId, 'read'))).toEqual([404, 'not-found']);
    expect(await stack.prisma.sessionNote.count({ where: { sessionId } })).toBe(0);
    // A platform admin sees every tenant's, or only the one picked with X-Tenant-Id.
    expect((await inbox(platformAdmin)).body.some((i) => i.id === sessionId)).toBe(true);
    const picked = await fetch(`${stack.apiUrl}/v1/admin/inbox`, { headers: { authorization: `Bearer ${platformAdmin}`, 'x-tenant-id': fx.tenant.id } });
    const pickedItems = (await picked.json()) as InboxItem[];
    expect(pickedItems.some((i) => i.id === sessionId)).toBe(false);
    expect(pickedItems.every((i) => i.tenantId === fx.tenant.id)).toBe(true);

    // Replying to a session the agent handed off claims it.
    const sent = await act(deskOperator, sessionId, 'replies', { text: 'Já vou te atender.' });
    expect(sent.status).toBe(201);
    expect((await inbox(deskViewer)).body.find((i) => i.id === sessionId)).toMatchObject({ takenOverBy: 'operator user', takenOverByMe: false, unread: 0 });
  });

  it('flags a failed turn under the message it failed to answer, beside the fallback the customer got', async () => {
    const failing = await createTenantFixture(stack.prisma, {
      agentConfig: { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { rules: [{ fail: { kind: 'auth', message: 'bad key' } }] } } },
    });
    const viewerThere = await tokenFor(stack, 'viewer', failing.tenant.id);
    const res = await request<Posted>(stack, failing.apiKey, 'POST', '/v1/messages?wait=30', { session: `fail-${uniqueSuffix()}`, text: 'Oi' });
    expect(res.status).toBe(200);
    const seen = await conversation(viewerThere, res.body.sessionId);
    const asked = seen.body.messages.find((m) => m.id === res.body.messageId);
    const turn = await stack.prisma.turn.findUniqueOrThrow({ where: { id: asked!.turnId! } });
    expect(asked?.turn).toMatchObject({ id: turn.id, failure: 'failed', model: turn.model });
    expect(seen.body.messages.filter((m) => m.direction === 'outbound').map((m) => m.kind)).toEqual(['fallback']);
  });

  it("shows an operator's reply in the widget visitor's conversation, as the agent's replies are", async () => {
    const shop = 'https://shop.example.test';
    const widget = await createWidgetChannel(stack.prisma, fx.tenant.id, fx.agent.id, { allowedOrigins: [shop] });
    const call = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${stack.apiUrl}/v1/widget/${widget.publicId}${path}`, {
        method,
        headers: { origin: shop, ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
      return (await res.json()) as T;
    };
    const { token } = await call<{ token: string }>('POST', '/sessions', undefined, {});
    const history = () => call<{ messages: { direction: string; text: string }[] }>('GET', '/messages', token);
    const sent = await call<{ messageId: string }>('POST', '/messages', token, { id: 'visitor-msg-0001', text: 'Quero um quarto em Curitiba' });
    await eventually(async () => (await history()).messages.some((m) => m.direction === 'outbound'));
    const { sessionId } = await stack.prisma.message.findUniqueOrThrow({ where: { id: sent.messageId } });

    expect((await act(operator, sessionId, 'take-over')).status).toBe(200);
    const reply = await act<{ delivered: string }>(operator, sessionId, 'replies', { text: 'Oi, aqui é a Ana, do hotel.' });
    // A widget channel has no webhook: the widget reads its conversation and stream from the rows.
    expect([reply.status, reply.body.delivered]).toEqual([201, 'stream-only']);
    const seen = await history();
    expect(seen.messages.at(-1)).toMatchObject({ direction: 'outbound', text: 'Oi, aqui é a Ana, do hotel.' });
    expect((await request(stack, operator, 'POST', `/v1/admin/sessions/${sessionId}/hand-back`)).status).toBe(200);
  });
});
