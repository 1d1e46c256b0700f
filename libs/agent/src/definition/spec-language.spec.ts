// FlowSpec for the rest of the flow language (engine.md §6): every new step kind, branches,
// triggers and targets round-trip through fromSpec/toSpec, and flowSpecSchema agrees with
// validateFlow on what is valid.
import Ajv from 'ajv';
import type { FlowRegistries } from '../types/agent';
import { FlowConfigurationError } from './errors';
import { fromSpec, toSpec } from './spec';
import { flowSpecSchema } from './spec-schema';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures are edited into wrong shapes on purpose
type Loose = Record<string, any>;

const registries: FlowRegistries = {
  fields: { cidade: { type: 'string' }, email: { type: 'string' }, vip: { type: 'boolean' } },
  tools: ['preco'],
  actions: { cobrar: { type: 'object', properties: { valor: { type: 'number' } }, required: ['valor'] }, avisar: undefined },
  conditions: ['temVaga'],
  flows: ['pedido', 'humano'],
};

function pedidoSpec(): Loose {
  return {
    id: 'pedido',
    name: 'Pedido',
    description: null,
    on: [
      { message: ['quero pagar'], repeat: { cooldown: '1h' } },
      { mention: ['meu e-mail'], extract: ['email'], repeat: null },
      { event: 'carrinho', after: '30m' },
      { silence: '2h', repeat: 'once' },
    ],
    steps: [
      { id: 'vip', kind: 'if', if: { equals: { vip: true }, known: ['cidade'], condition: 'temVaga' }, then: 'cobra', else: 'pergunta' },
      {
        id: 'pergunta',
        kind: 'prompt',
        prompt: 'Pergunte se quer pagar agora.',
        branches: [{ when: 'Quer falar com alguém?', then: { flow: 'humano' } }, { if: 'temVaga', then: 'cobra', when: null }],
        say: null,
        do: null,
      },
      { id: 'cobra', kind: 'do', do: 'cobrar', with: { valor: 420 }, onFail: 'falhou' },
      { id: 'pausa', kind: 'wait', wait: '3s' },
      { id: 'pix', kind: 'say', say: 'Envie o Pix.' },
      { id: 'aguarda', kind: 'wait', wait: { event: 'pago', upTo: '1d' }, else: 'end' },
      { id: 'lembra', kind: 'wait', wait: '24h', businessHours: { start: '09:00', end: '18:00', days: [1, 2, 3, 4, 5], timeZone: 'America/Sao_Paulo' }, else: 'end' },
      { id: 'aviso', kind: 'do', do: 'avisar', then: 'end' },
      { id: 'falhou', kind: 'say', say: 'Não consegui cobrar.', then: { flow: 'humano' } },
    ],
    tools: null,
    instructions: null,
    onEnd: 'reset',
  };
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

describe('FlowSpec with do, if and wait steps, branches and every trigger', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validate = ajv.compile(flowSpecSchema(registries));

  it('round-trips: toSpec(fromSpec(s)) is s without its nulls, and the schema accepts it', () => {
    const spec = pedidoSpec();
    const copy = structuredClone(spec);
    const flow = fromSpec(spec, { registries });
    expect(toSpec(flow)).toEqual(withoutNulls(copy));
    expect(spec).toEqual(copy);
    expect(validate(spec)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  // The schema cannot see across values (step ids, hours, time zones): fromSpec is the authority.
  const crossValue = new Set(['a branch then naming no step', 'an else naming no step', 'business hours ending before they start', 'an unknown time zone']);

  it.each<[string, (s: Loose) => void, string, (string | number)[]]>([
    ['an unknown action', (s) => (s.steps[2].do = 'estornar'), 'unknown-action', ['steps', 2, 'do']],
    ['a missing action param', (s) => (s.steps[2].with = {}), 'missing-param', ['steps', 2, 'with']],
    ['an unknown condition', (s) => (s.steps[0].if = 'semVaga'), 'unknown-condition', ['steps', 0, 'if']],
    ['an unknown field in equals', (s) => (s.steps[0].if = { equals: { pais: 'BR' } }), 'unknown-field', ['steps', 0, 'if', 'equals', 'pais']],
    ['a bad duration', (s) => (s.steps[3].wait = '3 seconds'), 'invalid-duration', ['steps', 3, 'wait']],
    ['a bad upTo', (s) => (s.steps[5].wait = { event: 'pago', upTo: '1y' }), 'invalid-duration', ['steps', 5, 'wait', 'upTo']],
    ['a bad cooldown', (s) => (s.on[0].repeat = { cooldown: 'soon' }), 'invalid-duration', ['on', 0, 'repeat', 'cooldown']],
    ['a bad silence', (s) => (s.on[3].silence = '2 horas'), 'invalid-duration', ['on', 3, 'silence']],
    ['a branch then naming no step', (s) => (s.steps[1].branches[1].then = 'nada'), 'unknown-step', ['steps', 1, 'branches', 1, 'then']],
    ['a chain to an unknown flow', (s) => (s.steps[8].then = { flow: 'outro' }), 'unknown-flow', ['steps', 8, 'then', 'flow']],
    ['an else naming no step', (s) => (s.steps[0].else = 'nada'), 'unknown-step', ['steps', 0, 'else']],
    ['business hours ending before they start', (s) => (s.steps[6].businessHours.end = '08:00'), 'invalid-hours', ['steps', 6, 'businessHours', 'end']],
    ['an unknown time zone', (s) => (s.steps[6].businessHours.timeZone = 'Mars/Olympus'), 'invalid-hours', ['steps', 6, 'businessHours', 'timeZone']],
    ['a trigger of two kinds', (s) => (s.on[2].silence = '1h'), 'invalid-trigger', ['on', 2]],
    ['extract on a message trigger', (s) => (s.on[0].extract = ['email']), 'invalid-trigger', ['on', 0, 'extract']],
    ['an unknown extract field', (s) => (s.on[1].extract = ['telefone']), 'unknown-field', ['on', 1, 'extract', 0]],
    ['an empty mention list', (s) => (s.on[1].mention = []), 'empty-phrase', ['on', 1, 'mention']],
    ['kind "do" without do', (s) => (s.steps[2].kind = 'wait'), 'kind-mismatch', ['steps', 2, 'kind']],
    ['branches on a say step', (s) => (s.steps[4].branches = [{ then: 'end' }]), 'mixed-step', ['steps', 4, 'branches']],
    ['a talk option on a do step', (s) => (s.steps[2].prompt = 'p'), 'mixed-step', ['steps', 2, 'prompt']],
  ])('refuses %s (code and path), and so does the schema where it can see it', (name, edit, code, path) => {
    const spec = pedidoSpec();
    edit(spec);
    let err: unknown;
    try {
      fromSpec(spec, { registries });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FlowConfigurationError);
    expect({ code: (err as FlowConfigurationError).code, path: (err as FlowConfigurationError).path }).toEqual({ code, path });
    expect((err as Error).message).toMatch(/^\[FlowConfigurationError\] flow "pedido".*: .+\. .+\.$/);
    expect(validate(spec)).toBe(crossValue.has(name));
  });
});
