import { FlowConfigurationError, ScriptedProvider, conciergeScript, type AnyTool } from '@falai/agent';
import { agentConfigSchema, InvalidAgentConfigError, parseAgentConfig } from './agent-config.schema';
import { buildEngineAgent, UnknownAgentToolError } from './build-engine-agent';
import { conciergeAgentConfig } from './concierge';

const preco: AnyTool = {
  id: 'preco',
  description: 'Preço da diária em uma cidade.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  handler: () => ({ value: { precoNoite: 420 } }),
};
const reservar: AnyTool = {
  id: 'reservar',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  isDestructive: () => true,
  handler: () => ({ value: { codigo: 'RES-1' }, data: { reserva: 'RES-1' } }),
};

describe('agentConfigSchema', () => {
  it('accepts the Concierge config as stored JSON', () => {
    const stored = JSON.parse(JSON.stringify(conciergeAgentConfig));
    expect(parseAgentConfig(stored)).toEqual(stored);
  });

  it('names every bad path, and refuses unknown keys', () => {
    const bad = {
      ...conciergeAgentConfig,
      provider: { kind: 'anthropic', model: '' },
      fields: { 'cidade natal': { type: 'text' } },
      maxToolLoops: -1,
      extra: true,
    };
    let error: unknown;
    try {
      parseAgentConfig(bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidAgentConfigError);
    const paths = (error as InvalidAgentConfigError).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['provider.kind', 'provider.model', 'maxToolLoops', '']));
    expect(paths.some((p) => p.startsWith('fields'))).toBe(true);
    expect((error as InvalidAgentConfigError).code).toBe('invalid-agent-config');
    expect((error as Error).message).toMatch(/^Invalid agent config: .*Fix the agent config and publish it again\.$/);
  });

  it('checks the double-texting policy and the fallback message', () => {
    expect(agentConfigSchema.safeParse({ ...conciergeAgentConfig, doubleTexting: { policy: 'merge', mergeWindowMs: 1500 } }).success).toBe(true);
    expect(agentConfigSchema.safeParse({ ...conciergeAgentConfig, doubleTexting: { policy: 'batch' } }).success).toBe(false);
    expect(agentConfigSchema.safeParse({ ...conciergeAgentConfig, fallbackMessage: '' }).success).toBe(false);
  });
});

describe('buildEngineAgent', () => {
  it('builds the Concierge, which answers tool.md\'s example offline with the price', async () => {
    const agent = buildEngineAgent(conciergeAgentConfig, {
      tools: [preco, reservar],
      provider: new ScriptedProvider(conciergeScript),
    });
    expect(agent.name).toBe('Concierge');
    const r = await agent.turn({ sessionId: 'demo', message: 'Quero um quarto em Curitiba', id: 'm1' });
    expect(r.messages.map((m) => m.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);
    expect(r.llmCalls).toBeGreaterThanOrEqual(1);
    expect(r.session.data).toEqual({ cidade: 'Curitiba' });
  });

  it('answers a plain "Oi" with a greeting, not a price for no city (the seeded demo\'s first message)', async () => {
    const agent = buildEngineAgent(conciergeAgentConfig, { tools: [preco, reservar], provider: new ScriptedProvider(conciergeScript) });
    for (const hello of ['Oi', 'olá!', 'Bom dia']) {
      const r = await agent.turn({ sessionId: `hello-${hello}`, message: hello, id: 'm1' });
      expect(r.messages.map((m) => m.text)).toEqual(['Olá! Eu sou o Concierge. Posso ajudar com hospedagem: em qual cidade você quer ficar?']);
    }
    // The flow still quotes once the city is known.
    const r = await agent.turn({ sessionId: 'hello-then-book', message: 'Quero um quarto em Curitiba', id: 'm2' });
    expect(r.messages.map((m) => m.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);
  });

  it('offers only the tools the allow-list names', async () => {
    const seen: string[][] = [];
    const provider = new ScriptedProvider(conciergeScript);
    const generate = provider.generate.bind(provider);
    provider.generate = async (req) => {
      seen.push(req.tools.map((t) => t.name));
      return generate(req);
    };
    const idleOnly = { ...conciergeAgentConfig, flows: [], tools: ['preco'], idle: undefined };
    const extra: AnyTool = { id: 'extra', handler: () => ({}) };
    const agent = buildEngineAgent(idleOnly, { tools: [preco, reservar, extra], provider });
    await agent.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(seen.flat()).toContain('preco');
    expect(seen.flat()).not.toContain('reservar');
    expect(seen.flat()).not.toContain('extra');
  });

  it('refuses an allow-listed tool nobody provides, naming it', () => {
    expect(() => buildEngineAgent(conciergeAgentConfig, { tools: [preco], provider: new ScriptedProvider(conciergeScript) })).toThrow(
      UnknownAgentToolError,
    );
    expect(() => buildEngineAgent(conciergeAgentConfig, { tools: [preco], provider: new ScriptedProvider(conciergeScript) })).toThrow(
      /"reservar"/,
    );
  });

  it('lets the engine refuse a flow that does not hold together, with where it broke', () => {
    const broken = {
      ...conciergeAgentConfig,
      flows: [{ ...conciergeAgentConfig.flows[0] as object, steps: [{ id: 'onde', kind: 'collect', collect: ['pais'] }] }],
    };
    let error: unknown;
    try {
      buildEngineAgent(broken, { tools: [preco, reservar], provider: new ScriptedProvider(conciergeScript) });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(FlowConfigurationError);
    expect((error as Error).message).toMatch(/flow "hospedagem", step "onde"/);
  });
});
