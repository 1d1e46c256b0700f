// JSON rules that play the model of tool.md's Concierge example offline: the hospedagem flow,
// the `preco` price lookup, and the `reservar` booking. Stored as-is in an agent's config.
import type { ScriptJson } from './rules';

export const conciergeScript: ScriptJson = {
  rules: [
    { call: 'understand', match: 'quarto|hosped|hotel|pousada|di[aá]ria|reserv', flows: { hospedagem: 90 } },
    // "em Curitiba", "em São Paulo": a capitalised place name after "em".
    { call: 'understand', match: '\\bem (\\p{Lu}[\\p{L}-]*(?: (?:d[aeo]s? )?\\p{Lu}[\\p{L}-]*)*)', flags: 'u', fields: { cidade: '{{match.1}}' } },
    // A message that is only a place name ("Curitiba", "Rio de Janeiro."), not a yes/no or a greeting.
    {
      call: 'understand',
      match: '^\\s*(?![Ss]im\\b|[Nn][ãa]o\\b|[Oo]i\\b|[Oo]l[áa]\\b|[Oo]k\\b|[Oo]brigad)(\\p{Lu}[\\p{L}-]*(?: (?:d[aeo]s? )?\\p{Lu}[\\p{L}-]*)*)\\s*[.!]?\\s*$',
      flags: 'u',
      fields: { cidade: '{{match.1}}' },
    },
    { call: 'speak', asks: ['cidade'], reply: 'Claro! Em qual cidade você quer ficar?' },
    { call: 'speak', offered: ['preco'], round: 1, toolCalls: [{ name: 'preco', arguments: { cidade: '{{known.cidade}}' } }] },
    {
      call: 'speak',
      afterTool: 'preco',
      reply: 'A diária em {{known.cidade}} sai por R$ {{tool.preco.precoNoite}}. Posso reservar?',
    },
    {
      call: 'speak',
      offered: ['reservar'],
      round: 1,
      match: '\\b(sim|pode|confirm|reserv|quero|ok)',
      toolCalls: [{ name: 'reservar', arguments: { cidade: '{{known.cidade}}' } }],
    },
    {
      call: 'speak',
      afterTool: 'reservar',
      reply: 'Pronto! Sua reserva em {{known.cidade}} está confirmada. Código: {{tool.reservar.codigo}}.',
    },
    { call: 'speak', offered: ['reservar'], reply: 'Tudo bem. Quando quiser, é só pedir que eu reservo.' },
    // A greeting outside the flow: greet back and say what the Concierge does.
    {
      call: 'speak',
      match: '^\\s*(oi|ol[áa]|bom dia|boa tarde|boa noite|e a[íi]|hey|hello|hi)(?![\\p{L}])',
      reply: 'Olá! Eu sou o Concierge. Posso ajudar com hospedagem: em qual cidade você quer ficar?',
    },
    { call: 'speak', reply: 'Posso ajudar com hospedagem: diga em qual cidade você quer ficar.' },
  ],
};
