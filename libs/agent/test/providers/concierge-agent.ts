// tool.md's Concierge example, unchanged except that the provider is a parameter, so the
// acceptance tests can point it at a fake model server.
import { falai, type AiProvider, type DataOf, type Tool } from '@falai/agent';

export function buildConcierge(provider: AiProvider) {
  const f = falai().fields({
    cidade: { type: "string", ask: "Pergunte em qual cidade a pessoa quer ficar." },
    reserva: { type: "string", description: "Código da reserva" },
  });

  const preco: Tool = {
    id: "preco",
    description: "Preço da diária em uma cidade.",
    parameters: { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] },
    handler: () => ({ value: { precoNoite: 420 } }),
  };

  type Data = DataOf<typeof f>;

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
      return { value: { codigo }, data: { reserva: codigo } };
    },
  };

  return f.agent({
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
          { id: "oferta", prompt: "Apresente o preço da diária. Pergunte se pode reservar.", tools: ["preco"] },
          { id: "confirma", prompt: "Se a pessoa confirmou, reserve e informe o código.", collect: ["reserva"], tools: ["reservar"] },
        ],
      }),
    ],
  });
}
