import type { ToolCtx } from '@falai/agent';
import { agent, call, model, rounds } from '../../libs/agent/test/engine/support';

// Tool arguments come from the model, so from whoever wrote the customer's message. JSON.parse
// turns `"__proto__"` into an own key; whatever copies those arguments onward (a tool that
// saves them as data, the engine merging data patches into the session) must not let that key
// change a prototype: not Object.prototype, and not the session's `data`.

const HOSTILE = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"city":"Curitiba"}';

type Ctx = ToolCtx<{ tenant: string }, Record<string, unknown>>;

describe('hostile tool arguments from the model', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it.each([
    ['a JSON string (OpenAI)', HOSTILE],
    ['an object (Gemini)', JSON.parse(HOSTILE) as Record<string, unknown>],
  ])('given as %s, never reach a prototype, ctx.data or the session data', async (_label, args) => {
    const seenData: Record<string, unknown>[] = [];
    const seenArgs: Record<string, unknown>[] = [];
    // "save" stores what the model passed as session data; "read" runs in the next round.
    const save = { id: 'save', handler: (a: Record<string, unknown>) => (seenArgs.push(a), { data: a }) };
    const read = { id: 'read', handler: (_a: Record<string, unknown>, ctx: Ctx) => (seenData.push(ctx.data), {}) };
    const provider = model(rounds({ toolCalls: [call('save', args)] }, { toolCalls: [call('read')] }, { text: 'ok' }));

    const result = await agent({ provider, tools: [save, read] }).turn({ sessionId: 's', message: 'hi', data: { name: 'Ana' } });

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seenArgs[0]).toMatchObject({ city: 'Curitiba' });
    for (const data of [seenData[0], result.session.data as Record<string, unknown>]) {
      expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
      expect(data.polluted).toBeUndefined();
      expect(data).toMatchObject({ name: 'Ana', city: 'Curitiba' });
    }
    expect(JSON.parse(JSON.stringify(result.session.data))).not.toHaveProperty('polluted');
  });
});
