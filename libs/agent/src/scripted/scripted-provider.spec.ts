// The ScriptedProvider: JSON rules (as an agent config stores them), function scripts,
// recorded requests, latency and failures.
import { ProviderError, type ModelRequest } from '../provider';
import { KNOWN_FIELDS_PREFIX } from '../turn/prompts';
import { conciergeScript } from './concierge-script';
import { parseScript, ScriptError } from './rules';
import { ScriptedProvider } from './scripted-provider';

const understandReq = (message: string): ModelRequest => ({ call: 'understand', round: 0, system: '', history: [{ role: 'user', content: message }], tools: [] });
const speakReq = (message: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  call: 'speak',
  round: 1,
  system: `${KNOWN_FIELDS_PREFIX}{"cidade":"Curitiba"}`,
  history: [{ role: 'user', content: message }],
  tools: [],
  schema: { name: 'reply', schema: { type: 'object', properties: { message: { type: 'string' } } } },
  ...extra,
});

describe('ScriptedProvider', () => {
  it('merges every matching understand rule: flow scores and field values with regex groups', async () => {
    const p = new ScriptedProvider({ rules: conciergeScript });
    const reply = await p.generate(understandReq('Quero um quarto em São Paulo'));
    expect(reply.structured).toEqual({ flows: { hospedagem: 90 }, fields: { cidade: 'São Paulo' } });
    expect(JSON.parse(reply.text!)).toEqual(reply.structured);
  });

  it('answers an understand call no rule matches with empty judgments', async () => {
    const p = new ScriptedProvider({ rules: conciergeScript });
    expect((await p.generate(understandReq('bom dia'))).structured).toEqual({ flows: {}, fields: {} });
  });

  it('picks the first speak rule whose conditions hold: offered tools, round, and tool results', async () => {
    const p = new ScriptedProvider({ rules: conciergeScript });
    const tools = [{ name: 'preco' }];
    const first = await p.generate(speakReq('Quero um quarto', { tools }));
    expect(first.toolCalls).toEqual([{ name: 'preco', arguments: { cidade: 'Curitiba' } }]);
    const history = [
      { role: 'user' as const, content: 'Quero um quarto' },
      { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call-1-0', name: 'preco', arguments: {} }] },
      { role: 'tool' as const, tool_call_id: 'call-1-0', name: 'preco', content: '{"precoNoite":420}' },
    ];
    const second = await p.generate(speakReq('Quero um quarto', { tools, round: 2, history }));
    expect(second.text).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
    expect(second.structured).toEqual({ message: second.text });
  });

  it('matches asks against the reply schema', async () => {
    const p = new ScriptedProvider({ rules: conciergeScript });
    const reply = await p.generate(speakReq('oi', { schema: { name: 'reply', schema: { properties: { message: {}, cidade: {} } } } }));
    expect(reply.text).toBe('Claro! Em qual cidade você quer ficar?');
  });

  it('a speak call no rule answers fails as provider-invalid with a clear message', async () => {
    const p = new ScriptedProvider({ rules: [{ call: 'speak', match: 'preço', reply: 'R$ 420' }] });
    await expect(p.generate(speakReq('bom dia'))).rejects.toMatchObject({ kind: 'invalid', message: 'ScriptedProvider: no rule answers speak round 1 for "bom dia"' });
  });

  it('records every request it received', async () => {
    const p = new ScriptedProvider({ rules: conciergeScript });
    await p.generate(understandReq('oi'));
    await p.generate(speakReq('oi'));
    expect(p.requests.map((r) => r.call)).toEqual(['understand', 'speak']);
    expect(p.calls('speak')[0].history).toEqual([{ role: 'user', content: 'oi' }]);
  });

  it('fromJson keeps only the last 100 requests; recordLimit sets another bound', async () => {
    const p = ScriptedProvider.fromJson(conciergeScript);
    for (let i = 0; i < 105; i += 1) await p.generate(understandReq(`m${i}`));
    expect(p.requests).toHaveLength(100);
    expect(p.requests[0].history).toEqual([{ role: 'user', content: 'm5' }]);
    const small = new ScriptedProvider({ rules: conciergeScript, recordLimit: 2 });
    for (let i = 0; i < 3; i += 1) await small.generate(understandReq(`m${i}`));
    expect(small.requests.map((r) => r.history[0])).toEqual([{ role: 'user', content: 'm1' }, { role: 'user', content: 'm2' }]);
  });

  it('fails a call with any ProviderError kind, and `times` limits how often a rule answers', async () => {
    const p = new ScriptedProvider({
      rules: [
        { call: 'speak', times: 2, fail: { kind: 'quota', message: 'no credit', resetAt: '2026-12-02T13:00:00.000Z' } },
        { call: 'speak', reply: 'back' },
      ],
    });
    for (let i = 0; i < 2; i += 1) {
      const err = await p.generate(speakReq('x')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'quota', message: 'no credit', resetAt: new Date('2026-12-02T13:00:00.000Z') });
    }
    expect((await p.generate(speakReq('x'))).text).toBe('back');
  });

  it('`withinMs` ends a rule with time from the first call, however few calls came', async () => {
    const p = new ScriptedProvider({
      rules: [
        { call: 'understand', times: 6, withinMs: 40, fail: { kind: 'overloaded', message: 'outage' } },
        { call: 'understand', flows: { eco: 90 } },
      ],
    });
    await expect(p.generate(understandReq('a'))).rejects.toMatchObject({ kind: 'overloaded', message: 'outage' });
    await new Promise((r) => setTimeout(r, 60));
    // Five of its six calls are left, but its time is over: the model is back.
    expect((await p.generate(understandReq('b'))).structured).toMatchObject({ flows: { eco: 90 } });
  });

  it('simulates latency per provider and per rule', async () => {
    const p = new ScriptedProvider({ rules: { latencyMs: 30, rules: [{ call: 'speak', match: 'slow', latencyMs: 60, reply: 's' }, { call: 'speak', reply: 'f' }] } });
    let t = Date.now();
    await p.generate(speakReq('fast'));
    expect(Date.now() - t).toBeGreaterThanOrEqual(25);
    t = Date.now();
    await p.generate(speakReq('slow'));
    expect(Date.now() - t).toBeGreaterThanOrEqual(55);
  });

  it('takes a function script for tests, falling through to the rules when it returns undefined', async () => {
    const p = new ScriptedProvider({
      script: (req, index) => (req.round === 2 ? { text: `round two, call ${index}` } : undefined),
      rules: [{ call: 'speak', reply: 'from rules' }],
    });
    expect((await p.generate(speakReq('x'))).text).toBe('from rules');
    expect((await p.generate(speakReq('x', { round: 2 }))).text).toBe('round two, call 1');
  });

  it('streams the reply word by word, then the reply', async () => {
    const p = new ScriptedProvider({ rules: [{ call: 'speak', reply: 'Olá, tudo bem?' }] });
    const chunks = [];
    for await (const c of p.stream(speakReq('x'))) chunks.push(c);
    expect(chunks.slice(0, -1)).toEqual([{ delta: 'Olá, ' }, { delta: 'tudo ' }, { delta: 'bem?' }]);
    expect(chunks[chunks.length - 1]).toMatchObject({ done: true, reply: { text: 'Olá, tudo bem?' } });
  });

  it('a whole-template argument keeps its value type; text templates interpolate', async () => {
    const p = new ScriptedProvider({
      rules: [{ call: 'speak', toolCalls: [{ name: 't', arguments: { n: '{{known.noites}}', s: 'em {{known.cidade}}' } }] }],
    });
    const reply = await p.generate(speakReq('x', { system: `${KNOWN_FIELDS_PREFIX}{"cidade":"Recife","noites":3}` }));
    expect(reply.toolCalls).toEqual([{ name: 't', arguments: { n: 3, s: 'em Recife' } }]);
  });
});

describe('parseScript', () => {
  it('accepts the concierge script as stored JSON', () => {
    expect(parseScript(JSON.parse(JSON.stringify(conciergeScript)))).toEqual(conciergeScript);
  });

  it('accepts a bare array of rules', () => {
    expect(parseScript([{ reply: 'x' }])).toEqual({ rules: [{ reply: 'x' }] });
  });

  it.each([
    [{ rules: [{ match: '(' }] }, /^\[ScriptError\] script\.rules\[0\]\.match: is not a valid regex/],
    [{ rules: [{ repl: 'x' }] }, '[ScriptError] script.rules[0].repl: is not a rule key.'],
    [{ rules: [{ fail: { kind: 'boom' } }] }, /^\[ScriptError\] script\.rules\[0\]\.fail\.kind: must be one of overloaded/],
    [{ rules: [{ call: 'talk' }] }, '[ScriptError] script.rules[0].call: must be "understand" or "speak".'],
    [{ rules: [{ toolCalls: [{ arguments: {} }] }] }, '[ScriptError] script.rules[0].toolCalls[0]: must be { name: string, arguments? }.'],
    [{ rules: 'x' }, '[ScriptError] script.rules: must be an array of rules.'],
    [{ rules: [{ reply: 'x', chance: 1.5 }] }, '[ScriptError] script.rules[0].chance: must be a probability from 0 to 1.'],
    [{ rules: [{ reply: 'x', withinMs: -1 }] }, '[ScriptError] script.rules[0].withinMs: must be a number, 0 or more.'],
    [{ rules: [], seed: 1.5 }, '[ScriptError] script.seed: must be an integer.'],
  ])('refuses %j naming where and what', (json, message) => {
    expect(() => parseScript(json)).toThrow(ScriptError);
    expect(() => parseScript(json)).toThrow(message);
  });
});

describe('ScriptedProvider chance rules (a flaky model)', () => {
  const flaky = (seed: number) => ({
    seed,
    rules: [
      { call: 'speak' as const, chance: 0.3, fail: { kind: 'overloaded' as const } },
      { call: 'speak' as const, reply: 'eco: {{message}}' },
    ],
  });

  async function outcomes(seed: number, n: number): Promise<string[]> {
    const p = new ScriptedProvider({ rules: flaky(seed) });
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      try {
        out.push((await p.generate(speakReq(`m${i}`))).text ?? '');
      } catch (err) {
        out.push((err as ProviderError).kind);
      }
    }
    return out;
  }

  it('fails about the stated share of calls and falls through to the next rule otherwise', async () => {
    const results = await outcomes(7, 2000);
    const failed = results.filter((r) => r === 'overloaded').length;
    expect(failed / results.length).toBeGreaterThan(0.27);
    expect(failed / results.length).toBeLessThan(0.33);
    results.forEach((r, i) => expect(r === 'overloaded' || r === `eco: m${i}`).toBe(true));
  });

  it('replays the same draws for the same seed, other draws for another', async () => {
    expect(await outcomes(42, 50)).toEqual(await outcomes(42, 50));
    expect(await outcomes(42, 50)).not.toEqual(await outcomes(43, 50));
  });

  it('never answers with chance 0, always with chance 1', async () => {
    const never = new ScriptedProvider({ rules: [{ chance: 0, reply: 'no' }, { reply: 'yes' }] });
    const always = new ScriptedProvider({ rules: [{ chance: 1, reply: 'no' }, { reply: 'yes' }] });
    for (let i = 0; i < 20; i++) {
      expect((await never.generate(speakReq('x'))).text).toBe('yes');
      expect((await always.generate(speakReq('x'))).text).toBe('no');
    }
  });
});

describe('ScriptedProvider branch answers', () => {
  it('answers branch questions from its rules when the understand call asks them', async () => {
    const provider = new ScriptedProvider({ rules: [{ call: 'understand', match: 'humano', branches: { 'p:0': true } }] });
    const base = { call: 'understand' as const, round: 0, system: '', tools: [], history: [{ role: 'user' as const, content: 'quero um humano' }] };
    const asked = await provider.generate({ ...base, schema: { name: 'understand', schema: { properties: { branches: {} } } } });
    expect(asked.structured).toEqual({ flows: {}, fields: {}, branches: { 'p:0': true } });
    const plain = await provider.generate({ ...base, schema: { name: 'understand', schema: { properties: {} } } });
    expect(plain.structured).toEqual({ flows: {}, fields: {} });
    expect(() => new ScriptedProvider({ rules: [{ branches: { x: 'sim' } }] } as never)).toThrow('branches');
  });
});
