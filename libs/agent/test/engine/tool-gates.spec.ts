// tool.md, "Gates, in order": each row, with the exact text the model reads.
import type { Tool } from '@falai/agent';
import { agent, call, model, rounds, says, toolItems } from './support';

async function readsAfter(tool: Tool, name = tool.id, args: Record<string, unknown> | string = {}, offered = [tool]) {
  const provider = model(rounds({ toolCalls: [call(name, args)] }, { text: 'done' }));
  const a = agent({ provider, tools: offered });
  const result = await a.turn({ sessionId: 's', message: 'hi' });
  return { read: toolItems(provider.requests[1])[0].content, result, provider };
}

describe('tool gates', () => {
  it('a call to an id not in this call\'s list reads not available and runs no handler', async () => {
    const handler = jest.fn(() => ({ value: 'x' }));
    const { read, result } = await readsAfter({ id: 'preco', handler }, 'x');
    expect(read).toBe('{"error":"Tool \\"x\\" is not available."}');
    expect(handler).not.toHaveBeenCalled();
    expect(result.trace.find((t) => t.type === 'tool')).toMatchObject({ gate: 'unavailable', tool: 'x', result: read });
  });

  it('a tool registered on the agent but outside the step\'s list is not available', async () => {
    const handler = jest.fn(() => ({}));
    const provider = model(rounds({ toolCalls: [call('reservar')] }, { text: 'ok' }));
    const a = agent({
      provider,
      tools: [{ id: 'preco', handler: () => ({}) }, { id: 'reservar', handler }],
      flows: [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'a', prompt: 'p', tools: ['preco'] }] }],
    });
    await a.turn({ sessionId: 's', message: 'hi' });
    expect(toolItems(provider.requests[1])[0].content).toBe('{"error":"Tool \\"reservar\\" is not available."}');
    expect(handler).not.toHaveBeenCalled();
  });

  it('validateInput valid:false skips the handler and reads the error with correctedInput', async () => {
    const handler = jest.fn(() => ({}));
    const { read, result } = await readsAfter({
      id: 'reservar',
      validateInput: () => ({ valid: false, error: 'Informe a cidade.', correctedInput: { cidade: 'Curitiba' } }),
      handler,
    });
    expect(read).toBe('{"error":"Validation failed: Informe a cidade.","correctedInput":{"cidade":"Curitiba"}}');
    expect(handler).not.toHaveBeenCalled();
    expect(result.trace[1]).toMatchObject({ type: 'tool', gate: 'invalid' });
  });

  it("validateInput without an error reads 'invalid input'", async () => {
    const { read } = await readsAfter({ id: 't', validateInput: () => ({ valid: false }), handler: () => ({}) });
    expect(read).toBe('{"error":"Validation failed: invalid input"}');
  });

  it('checkPermissions allowed:false skips the handler and reads Permission denied: <reason>', async () => {
    const handler = jest.fn(() => ({}));
    const { read, result } = await readsAfter({ id: 't', checkPermissions: () => ({ allowed: false, reason: 'fora do horário' }), handler });
    expect(read).toBe('{"error":"Permission denied: fora do horário"}');
    expect(handler).not.toHaveBeenCalled();
    expect(result.trace[1]).toMatchObject({ gate: 'denied' });
  });

  it("checkPermissions without a reason reads 'not allowed'", async () => {
    const { read } = await readsAfter({ id: 't', checkPermissions: async () => ({ allowed: false }), handler: () => ({}) });
    expect(read).toBe('{"error":"Permission denied: not allowed"}');
  });

  it('a handler that throws reads {"error":"<message>"} and the turn goes on', async () => {
    const { read, result } = await readsAfter({
      id: 't',
      handler: () => {
        throw new Error('sistema fora do ar');
      },
    });
    expect(read).toBe('{"error":"sistema fora do ar"}');
    expect(result.messages[0].text).toBe('done');
    expect(result.trace[1]).toMatchObject({ gate: 'threw' });
  });

  it('a handler that rejects reads the same as one that throws', async () => {
    const { read } = await readsAfter({ id: 't', handler: async () => Promise.reject(new Error('timeout no PMS')) });
    expect(read).toBe('{"error":"timeout no PMS"}');
  });

  it('a handler that returns has its value serialized', async () => {
    const { read, result } = await readsAfter({ id: 't', handler: () => ({ value: { precoNoite: 420 } }) });
    expect(read).toBe('{"precoNoite":420}');
    expect(result.trace[1]).toMatchObject({ gate: 'ok', result: '{"precoNoite":420}' });
  });

  it('runs the gates in order: validation before permissions before the handler', async () => {
    const order: string[] = [];
    await readsAfter({
      id: 't',
      validateInput: () => (order.push('validate'), { valid: true }),
      checkPermissions: () => (order.push('permissions'), { allowed: true }),
      handler: () => (order.push('handler'), {}),
    });
    expect(order).toEqual(['validate', 'permissions', 'handler']);
  });

  it('a failed validation never asks for permission', async () => {
    const checkPermissions = jest.fn(() => ({ allowed: true }));
    await readsAfter({ id: 't', validateInput: () => ({ valid: false, error: 'e' }), checkPermissions, handler: () => ({}) });
    expect(checkPermissions).not.toHaveBeenCalled();
  });

  it('validation and permission see the call context', async () => {
    const seen: unknown[] = [];
    const provider = model(rounds({ toolCalls: [call('t', { a: 1 })] }, { text: 'ok' }));
    const a = agent({
      provider,
      tools: [{ id: 't', validateInput: (input, ctx) => (seen.push(['v', input, ctx.context]), { valid: true }), checkPermissions: (input, ctx) => (seen.push(['p', input, ctx.now.toISOString()]), { allowed: true }), handler: () => ({}) }],
    });
    await a.turn({ sessionId: 's', message: 'hi', context: { tenant: 't1' } });
    expect(seen).toEqual([['v', { a: 1 }, { tenant: 't1' }], ['p', { a: 1 }, '2026-12-02T12:00:00.000Z']]);
  });

  it('a valid input with correctedInput hands the corrected input to permissions and the handler', async () => {
    const handler = jest.fn((_args: Record<string, unknown>) => ({}));
    await readsAfter({ id: 't', validateInput: () => ({ valid: true, correctedInput: { cidade: 'Curitiba' } }), handler }, 't', { cidade: 'curitiba ' });
    expect(handler.mock.calls[0][0]).toEqual({ cidade: 'Curitiba' });
  });

  it('arguments that arrive as a JSON string are parsed', async () => {
    const handler = jest.fn((_args: Record<string, unknown>) => ({}));
    await readsAfter({ id: 't', handler }, 't', '{"cidade":"Curitiba"}');
    expect(handler.mock.calls[0][0]).toEqual({ cidade: 'Curitiba' });
  });

  it('arguments that do not parse reach the gates as {} and the model reads a validation error', async () => {
    const handler = jest.fn(() => ({}));
    const validateInput = jest.fn(() => ({ valid: true }));
    const { read, result } = await readsAfter({ id: 't', validateInput, handler }, 't', '{"cidade":');
    expect(read).toMatch(/^\{"error":"Validation failed: arguments are not valid JSON \(.+\)"\}$/);
    expect(handler).not.toHaveBeenCalled();
    expect(validateInput).not.toHaveBeenCalled();
    expect(result.trace[1]).toMatchObject({ gate: 'invalid', arguments: {} });
  });

  it('nothing a tool does reaches the host as an exception', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    const tools: Tool[] = [
      { id: 'v', validateInput: boom, handler: () => ({}) },
      { id: 'p', checkPermissions: boom, handler: () => ({}) },
      { id: 'h', handler: () => Promise.reject('plain string') },
      { id: 'big', handler: () => ({ value: { n: BigInt(1) } }) },
      { id: 'safe', isReadOnly: boom, handler: () => ({ value: 1 }) },
    ];
    const provider = model(rounds({ toolCalls: tools.map((t) => call(t.id)) }, { text: 'still here' }));
    const result = await agent({ provider, tools }).turn({ sessionId: 's', message: 'hi' });
    expect(result.messages.map((m) => m.text)).toEqual(['still here']);
    expect(toolItems(provider.requests[1]).map((i) => i.content)).toEqual([
      '{"error":"Validation failed: boom"}',
      '{"error":"Permission denied: boom"}',
      '{"error":"plain string"}',
      '{"error":"Do not know how to serialize a BigInt"}',
      '1',
    ]);
  });

  it('a round with tools the model does not call ends the loop with its message', async () => {
    const provider = model(says('Olá!'));
    const result = await agent({ provider, tools: [{ id: 't', handler: () => ({}) }] }).turn({ sessionId: 's', message: 'oi' });
    expect(result.messages[0].text).toBe('Olá!');
    expect(result.llmCalls).toBe(1);
  });
});
