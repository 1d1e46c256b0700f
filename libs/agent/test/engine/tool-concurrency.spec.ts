// tool.md, "Rounds": consecutive safe calls run together with Promise.all, any other call runs
// alone and in order; data patches merge in call order. Tool fields isReadOnly,
// isConcurrencySafe and isDestructive.
import type { Tool } from '@falai/agent';
import { agent, call, model, rounds, toolItems } from './support';

/** Tools that log start/end and yield to the event loop, so overlapping calls interleave. */
function probe() {
  const log: string[] = [];
  let active = 0;
  let peak = 0;
  const make = (id: string, flags: Partial<Tool>, delayMs = 5, data?: Record<string, unknown>): Tool => ({
    id,
    ...flags,
    handler: async (args) => {
      const label = `${id}${args.n ?? ''}`;
      log.push(`start ${label}`);
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, typeof args.delay === 'number' ? args.delay : delayMs));
      active -= 1;
      log.push(`end ${label}`);
      return { value: label, ...(data ? { data } : {}) };
    },
  });
  return { log, make, peak: () => peak };
}

async function turnWith(tools: Tool[], calls: ReturnType<typeof call>[]) {
  const provider = model(rounds({ toolCalls: calls }, { text: 'ok' }));
  const result = await agent({ provider, tools }).turn({ sessionId: 's', message: 'hi' });
  return { provider, result };
}

describe('parallel and serial tool calls', () => {
  it('consecutive calls with isConcurrencySafe true run together', async () => {
    const p = probe();
    await turnWith([p.make('busca', { isConcurrencySafe: () => true })], [call('busca', { n: 1 }), call('busca', { n: 2 }), call('busca', { n: 3 })]);
    expect(p.log.slice(0, 3)).toEqual(['start busca1', 'start busca2', 'start busca3']);
    expect(p.peak()).toBe(3);
  });

  it('isReadOnly is the fallback when isConcurrencySafe is not defined', async () => {
    const p = probe();
    await turnWith([p.make('ler', { isReadOnly: () => true })], [call('ler', { n: 1 }), call('ler', { n: 2 })]);
    expect(p.peak()).toBe(2);
  });

  it('isConcurrencySafe wins over isReadOnly when both are defined', async () => {
    const p = probe();
    await turnWith([p.make('ler', { isReadOnly: () => true, isConcurrencySafe: () => false })], [call('ler', { n: 1 }), call('ler', { n: 2 })]);
    expect(p.log).toEqual(['start ler1', 'end ler1', 'start ler2', 'end ler2']);
  });

  it('a call with neither flag runs alone, in order', async () => {
    const p = probe();
    await turnWith([p.make('t', {})], [call('t', { n: 1 }), call('t', { n: 2 })]);
    expect(p.log).toEqual(['start t1', 'end t1', 'start t2', 'end t2']);
    expect(p.peak()).toBe(1);
  });

  it('a destructive call never runs in parallel, even when it says it is concurrency safe', async () => {
    const p = probe();
    await turnWith(
      [p.make('reservar', { isDestructive: () => true, isConcurrencySafe: () => true })],
      [call('reservar', { n: 1 }), call('reservar', { n: 2 })],
    );
    expect(p.log).toEqual(['start reservar1', 'end reservar1', 'start reservar2', 'end reservar2']);
  });

  it('the flags are asked about each call\'s own input', async () => {
    const p = probe();
    const isReadOnly = jest.fn((input: Record<string, unknown>) => input.n !== 2);
    await turnWith([p.make('t', { isReadOnly })], [call('t', { n: 1 }), call('t', { n: 2 }), call('t', { n: 3 })]);
    expect(isReadOnly.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    expect(p.log).toEqual(['start t1', 'end t1', 'start t2', 'end t2', 'start t3', 'end t3']);
  });

  it('an unsafe call splits safe neighbours into separate groups, keeping call order', async () => {
    const p = probe();
    const safe = p.make('s', { isReadOnly: () => true });
    const unsafe = p.make('u', {});
    await turnWith([safe, unsafe], [call('s', { n: 1 }), call('s', { n: 2 }), call('u', { n: 3 }), call('s', { n: 4 }), call('s', { n: 5 })]);
    expect(p.log.slice(0, 2)).toEqual(['start s1', 'start s2']);
    expect(p.log.indexOf('start u3')).toBeGreaterThan(Math.max(p.log.indexOf('end s1'), p.log.indexOf('end s2')));
    expect(p.log.indexOf('start s4')).toBeGreaterThan(p.log.indexOf('end u3'));
    expect(p.log.indexOf('start s5')).toBeLessThan(p.log.indexOf('end s4'));
  });

  it('data patches merge in call order, not in the order the calls finished', async () => {
    const tools: Tool[] = [
      { id: 'slow', isReadOnly: () => true, handler: async () => (await new Promise((r) => setTimeout(r, 20)), { data: { quarto: 'slow' } }) },
      { id: 'fast', isReadOnly: () => true, handler: async () => ({ data: { quarto: 'fast' } }) },
    ];
    const { result } = await turnWith(tools, [call('fast'), call('slow')]);
    expect(result.session.data.quarto).toBe('slow');
    const { result: reversed } = await turnWith(tools, [call('slow'), call('fast')]);
    expect(reversed.session.data.quarto).toBe('fast');
  });

  it('tool items and trace entries follow call order whatever finished first', async () => {
    const tools: Tool[] = [
      { id: 'slow', isReadOnly: () => true, handler: async () => (await new Promise((r) => setTimeout(r, 20)), { value: 'slow' }) },
      { id: 'fast', isReadOnly: () => true, handler: () => ({ value: 'fast' }) },
    ];
    const { provider, result } = await turnWith(tools, [call('slow'), call('fast')]);
    expect(toolItems(provider.requests[1]).map((i) => i.content)).toEqual(['slow', 'fast']);
    expect(result.trace.filter((t) => t.type === 'tool').map((t) => t.type === 'tool' && t.id)).toEqual(['call-1-0', 'call-1-1']);
  });
});
