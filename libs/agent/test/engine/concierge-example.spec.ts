// tool.md's final example, unchanged except GeminiProvider → ScriptedProvider(conciergeScript).
import { conciergeScript, falai, ScriptedProvider, type DataOf, type Tool } from '@falai/agent';

function buildExample(provider: ScriptedProvider) {
  const f = falai().fields({
    cidade: { type: "string", ask: "Pergunte em qual cidade a pessoa quer ficar." },
    reserva: { type: "string", description: "Código da reserva" },
  });

  // The smallest tool that works: one argument in, one value out. `value` is what the model reads back.
  const preco: Tool = {
    id: "preco",
    description: "Preço da diária em uma cidade.",
    parameters: { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] },
    handler: () => ({ value: { precoNoite: 420 } }),
  };

  type Data = DataOf<typeof f>;

  // A bigger one: it checks its input, never runs in parallel, and writes a field.
  const reservar: Tool<undefined, Data> = {
    id: "reservar",
    description: "Confirma a reserva e devolve o código.",
    parameters: { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] },
    isDestructive: () => true,
    validateInput: (args) =>
      typeof args.cidade === "string" && args.cidade.length > 0
        ? { valid: true }
        : { valid: false, error: "Informe a cidade." },
    handler: (_args, ctx) => {
      const codigo = `RES-${ctx.now.getTime().toString(36).toUpperCase()}`;
      // `data` lands in the session: the `confirma` step ends once `reserva` is known.
      return { value: { codigo }, data: { reserva: codigo } };
    },
  };

  const agent = f.agent({
    name: "Concierge",
    provider,
    tools: [preco, reservar],
    flows: [
      f.flow({
        id: "hospedagem",
        name: "Hospedagem",
        on: [{ message: ["quer reservar um quarto"] }],
        steps: [
          { id: "onde", collect: ["cidade"] },
          // Only this step may call `preco`.
          { id: "oferta", prompt: "Apresente o preço da diária. Pergunte se pode reservar.", tools: ["preco"] },
          { id: "confirma", prompt: "Se a pessoa confirmou, reserve e informe o código.", collect: ["reserva"], tools: ["reservar"] },
        ],
      }),
    ],
  });
  return agent;
}

describe("tool.md's Concierge example, offline", () => {
  it('turn 1 offers only preco, replies with the price; turn 2 offers only reservar, writes reserva, ends the run', async () => {
    const provider = new ScriptedProvider({ rules: conciergeScript });
    const agent = buildExample(provider);

    const r = await agent.turn({ sessionId: "demo", message: "Quero um quarto em Curitiba" });
    expect(r.messages[0]?.text).toContain('420');
    expect(r.llmCalls).toBeGreaterThanOrEqual(2);
    const speak1 = provider.calls('speak');
    expect(speak1.length).toBeGreaterThan(0);
    for (const req of speak1.filter((q) => q.tools.length > 0)) expect(req.tools.map((t) => t.name)).toEqual(['preco']);
    expect(speak1[0].tools.map((t) => t.name)).toEqual(['preco']);
    expect(r.session.data).toEqual({ cidade: 'Curitiba' });
    expect(r.started.map((run) => run.flowId)).toEqual(['hospedagem']);

    const before = provider.requests.length;
    const r2 = await agent.turn({ sessionId: "demo", message: "Sim, pode reservar" });
    const speak2 = provider.requests.slice(before).filter((q) => q.call === 'speak');
    expect(speak2[0].tools.map((t) => t.name)).toEqual(['reservar']);
    expect(r2.session.data.reserva).toMatch(/^RES-/);
    expect(r2.messages[0]?.text).toContain(String(r2.session.data.reserva));
    expect(r2.ended.map((run) => [run.flowId, run.reason])).toEqual([['hospedagem', 'completed']]);
    expect(r2.session.runs).toEqual([]);
  });

  it('plays the demo conversation: asks the city, quotes the price, books on yes', async () => {
    const provider = new ScriptedProvider({ rules: conciergeScript });
    const agent = buildExample(provider);
    const texts: string[] = [];
    for (const message of ['Oi, quero um quarto', 'Rio de Janeiro', 'Sim']) {
      const r = await agent.turn({ sessionId: 'demo2', message });
      texts.push(...r.messages.map((m) => m.text));
    }
    expect(texts[0]).toBe('Claro! Em qual cidade você quer ficar?');
    expect(texts[1]).toBe('A diária em Rio de Janeiro sai por R$ 420. Posso reservar?');
    expect(texts[2]).toMatch(/^Pronto! Sua reserva em Rio de Janeiro está confirmada\. Código: RES-/);
  });
});
