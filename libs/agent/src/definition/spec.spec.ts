import Ajv from 'ajv';
import type { FlowRegistries } from '../types/agent';
import type { Flow } from '../types/flow';
import type { FlowSpec } from '../types/spec';
import { FlowConfigurationError, type FlowWarning } from './errors';
import { fromSpec, stepKind, toSpec } from './spec';
import { flowSpecSchema } from './spec-schema';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures are edited into wrong shapes on purpose
type Loose = Record<string, any>;

const registries: FlowRegistries = {
  fields: { cidade: { type: 'string' }, reserva: { type: 'string' }, hospedes: { type: 'integer' } },
  tools: ['preco', 'reservar'],
};

// tool.md's example flow, as the console stores it: nulls where a value is absent.
function hospedagemSpec(): Loose {
  return {
    id: 'hospedagem',
    name: 'Hospedagem',
    description: null,
    on: [{ message: ['quer reservar um quarto'], repeat: null }],
    steps: [
      { id: 'onde', kind: 'collect', prompt: null, collect: ['cidade'], tools: null, ask: null, question: null, maxAsks: null, say: null, then: null },
      { id: 'oferta', kind: 'prompt', prompt: 'Apresente o preço da diária. Pergunte se pode reservar.', tools: ['preco'] },
      { id: 'confirma', kind: 'collect', prompt: 'Se a pessoa confirmou, reserve e informe o código.', collect: ['reserva'], tools: ['reservar'] },
      { id: 'tchau', kind: 'say', say: 'Obrigado!', then: 'end' },
    ],
    tools: null,
    instructions: null,
    onEnd: null,
  };
}

/** A deep copy without null object values, as `toSpec(fromSpec(s))` should give back. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

function thrown(run: () => unknown): FlowConfigurationError {
  try {
    run();
  } catch (err) {
    if (err instanceof FlowConfigurationError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('fromSpec', () => {
  it('turns a spec into the flow tool.md writes by hand', () => {
    expect(fromSpec(hospedagemSpec())).toEqual({
      id: 'hospedagem',
      name: 'Hospedagem',
      on: [{ message: ['quer reservar um quarto'] }],
      steps: [
        { id: 'onde', collect: ['cidade'] },
        { id: 'oferta', prompt: 'Apresente o preço da diária. Pergunte se pode reservar.', tools: ['preco'] },
        { id: 'confirma', prompt: 'Se a pessoa confirmou, reserve e informe o código.', collect: ['reserva'], tools: ['reservar'] },
        { id: 'tchau', say: 'Obrigado!', then: 'end' },
      ],
    });
  });

  it('copies: changing the flow leaves the spec alone', () => {
    const spec = hospedagemSpec();
    const flow = fromSpec(spec);
    (flow.steps[0] as { collect: string[] }).collect.push('hospedes');
    (flow.on![0] as { message: string[] }).message.push('outra');
    expect(spec.steps[0].collect).toEqual(['cidade']);
    expect(spec.on[0].message).toEqual(['quer reservar um quarto']);
  });

  it('with registries, also runs validateFlow and hands back its warnings', () => {
    const spec = hospedagemSpec();
    spec.steps[0].then = 'confirma';
    const warnings: FlowWarning[] = [];
    fromSpec(spec, { registries, warnings, path: ['flows', 2] });
    expect(warnings).toEqual([
      { code: 'unreachable-step', message: 'flow "hospedagem", step "oferta": no step leads to it, so it never runs.', path: ['flows', 2, 'steps', 1] },
    ]);
    spec.steps[1].tools = ['clima'];
    const err = thrown(() => fromSpec(spec, { registries, path: ['flows', 2] }));
    expect(err.code).toBe('unknown-tool');
    expect(err.pointer).toBe('/flows/2/steps/1/tools/0');
  });

  it.each<[string, (s: Loose) => void, string, string, (string | number)[]]>([
    [
      'a step without a kind',
      (s) => delete s.steps[1].kind,
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": kind must be one of "prompt", "collect", "say", "do", "if", "wait", got nothing. Set kind to "prompt", "collect", "say", "do", "if" or "wait".',
      ['steps', 1, 'kind'],
    ],
    [
      'an unknown kind',
      (s) => (s.steps[1].kind = 'talk'),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": kind must be one of "prompt", "collect", "say", "do", "if", "wait", got "talk". Set kind to "prompt", "collect", "say", "do", "if" or "wait".',
      ['steps', 1, 'kind'],
    ],
    [
      'kind "prompt" on a step that collects',
      (s) => (s.steps[2].kind = 'prompt'),
      'kind-mismatch',
      '[FlowConfigurationError] flow "hospedagem", step "confirma": kind is "prompt" but collect lists fields. Set kind to "collect".',
      ['steps', 2, 'kind'],
    ],
    [
      'kind "collect" with nothing to collect',
      (s) => (s.steps[1].kind = 'collect'),
      'kind-mismatch',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": kind is "collect" but collect lists no field. List the fields in collect, or set kind to "prompt".',
      ['steps', 1, 'kind'],
    ],
    [
      'kind "say" without a text',
      (s) => (s.steps[3].say = null),
      'kind-mismatch',
      '[FlowConfigurationError] flow "hospedagem", step "tchau": kind is "say" but it has no say text. Write the text in say, or change kind.',
      ['steps', 3, 'kind'],
    ],
    [
      'kind "prompt" without a prompt',
      (s) => (s.steps[1].prompt = null),
      'kind-mismatch',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": kind is "prompt" but it has no prompt. Write the prompt, or change kind.',
      ['steps', 1, 'kind'],
    ],
    [
      'an unknown step property',
      (s) => (s.steps[0].colect = ['cidade']),
      'unknown-key',
      '[FlowConfigurationError] flow "hospedagem", step "onde": "colect" is not a property of a step spec. Remove it; the properties are "id", "kind", "prompt", "collect", "tools", "ask", "question", "maxAsks", "branches", "say", "do", "with", "onFail", "if", "else", "wait", "businessHours", "then".',
      ['steps', 0, 'colect'],
    ],
    [
      'an unknown flow property',
      (s) => (s.trigger = []),
      'unknown-key',
      '[FlowConfigurationError] flow "hospedagem": "trigger" is not a property of a flow spec. Remove it; the properties are "id", "name", "description", "on", "steps", "tools", "instructions", "onEnd".',
      ['trigger'],
    ],
    [
      'an empty spec',
      (s) => Object.keys(s).forEach((k) => delete s[k]),
      'missing-id',
      '[FlowConfigurationError] flow (no id): it has no id. Give the flow a non-empty string id, such as "hospedagem".',
      ['id'],
    ],
  ])('refuses %s', (_name, edit, code, message, path) => {
    const spec = hospedagemSpec();
    edit(spec);
    const err = thrown(() => fromSpec(spec, { registries }));
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    expect(err.path).toEqual(path);
  });

  it('refuses a value that is not an object', () => {
    expect(thrown(() => fromSpec('hospedagem')).message).toBe(
      '[FlowConfigurationError] flow spec: a flow spec must be an object, got "hospedagem". Pass { id, name, steps: [...] }.',
    );
  });
});

describe('toSpec', () => {
  it('gives every step its kind and leaves absent values out', () => {
    const flow: Flow = {
      id: 'f',
      name: 'F',
      steps: [
        { id: 'a', prompt: 'p' },
        { id: 'b', prompt: 'p', collect: [] },
        { id: 'c', collect: ['cidade'], question: 'Onde?' },
        { id: 'd', say: 'Oi' },
      ],
    };
    expect(toSpec(flow)).toEqual({
      id: 'f',
      name: 'F',
      steps: [
        { id: 'a', kind: 'prompt', prompt: 'p' },
        { id: 'b', kind: 'prompt', prompt: 'p', collect: [] },
        { id: 'c', kind: 'collect', collect: ['cidade'], question: 'Onde?' },
        { id: 'd', kind: 'say', say: 'Oi' },
      ],
    });
    expect(flow.steps.map(stepKind)).toEqual(['prompt', 'prompt', 'collect', 'say']);
  });

  it('round-trips: toSpec(fromSpec(s)) is s without its nulls', () => {
    const spec = hospedagemSpec();
    spec.on.push({ message: [], repeat: 'always' });
    spec.steps[0].ask = { cidade: 'Qual cidade?' };
    spec.steps[0].maxAsks = 2;
    spec.steps[0].question = 'Em qual cidade?';
    spec.tools = [];
    spec.onEnd = 'end';
    const copy = structuredClone(spec);
    expect(toSpec(fromSpec(spec))).toEqual(withoutNulls(copy));
    expect(spec).toEqual(copy);
  });

  it('round-trips a flow: fromSpec(toSpec(flow)) is the flow', () => {
    const flow = fromSpec(hospedagemSpec());
    expect(fromSpec(toSpec(flow) as unknown as Record<string, unknown>)).toEqual(flow);
  });

  it('copies: changing the spec leaves the flow alone', () => {
    const flow = fromSpec(hospedagemSpec());
    const spec: FlowSpec = toSpec(flow);
    spec.steps[0].collect!.push('hospedes');
    expect((flow.steps[0] as { collect: string[] }).collect).toEqual(['cidade']);
  });
});

describe('flowSpecSchema', () => {
  // strict: the schema must be clean enough for the strictest validator an editor may use.
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validate = ajv.compile(flowSpecSchema(registries));
  const valid = (spec: unknown) => validate(spec) === true;

  it('is a draft-07 schema with the field slugs and tool ids as enums', () => {
    const schema = flowSpecSchema(registries) as { $schema: string; definitions: Record<string, unknown> };
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.definitions.fieldSlug).toEqual({ type: 'string', enum: ['cidade', 'reserva', 'hospedes'] });
    expect(schema.definitions.toolId).toEqual({ type: 'string', enum: ['preco', 'reservar'] });
  });

  it('accepts valid specs, nulls included, and fromSpec accepts them too', () => {
    const specs = [hospedagemSpec(), withoutNulls(hospedagemSpec()), { id: 'x', name: 'X', on: [{ message: [] }], steps: [{ id: 'a', kind: 'say', say: 'Oi', prompt: null }] }];
    for (const spec of specs) {
      expect(valid(spec)).toBe(true);
      expect(() => fromSpec(spec, { registries })).not.toThrow();
    }
  });

  it.each<[string, (s: Loose) => void]>([
    ['a missing id', (s) => delete s.id],
    ['missing steps', (s) => delete s.steps],
    ['an empty steps list', (s) => (s.steps = [])],
    ['an unknown flow key', (s) => (s.trigger = [])],
    ['an unknown step key', (s) => (s.steps[0].colect = [])],
    ['a step id "end"', (s) => (s.steps[1].id = 'end')],
    ['an unknown kind', (s) => (s.steps[1].kind = 'talk')],
    ['an unknown field in collect', (s) => (s.steps[0].collect = ['pais'])],
    ['an unknown field in ask', (s) => (s.steps[0].ask = { pais: 'De onde?' })],
    ['an unknown tool in a step', (s) => (s.steps[1].tools = ['clima'])],
    ['an unknown tool in the flow', (s) => (s.tools = ['clima'])],
    ['maxAsks 0', (s) => (s.steps[0].maxAsks = 0)],
    ['maxAsks 1.5', (s) => (s.steps[0].maxAsks = 1.5)],
    ['a say step with tools', (s) => (s.steps[3].tools = ['preco'])],
    ['a say step with a prompt', (s) => (s.steps[3].prompt = 'p')],
    ['a prompt step with a question', (s) => (s.steps[1].question = 'Posso?')],
    ['kind "prompt" on a step that collects', (s) => (s.steps[2].kind = 'prompt')],
    ['kind "collect" with nothing to collect', (s) => (s.steps[1].kind = 'collect')],
    ['kind "say" without a text', (s) => (s.steps[3].say = null)],
    ['an empty phrase', (s) => (s.on[0].message = [''])],
    ['a bare "!" phrase', (s) => (s.on[0].message = ['reservar', '!'])],
    ['a list of exclusions only', (s) => (s.on[0].message = ['!cancelar'])],
    ['an unknown repeat', (s) => (s.on[0].repeat = 'never')],
    ['onEnd "later"', (s) => (s.onEnd = 'later')],
    ['an empty prompt', (s) => (s.steps[1].prompt = '')],
    ['a prompt of spaces', (s) => (s.steps[1].prompt = '   ')],
    ['a step id of spaces', (s) => (s.steps[1].id = ' ')],
    ['a blank flow name', (s) => (s.name = ' ')],
    ['a blank ask text', (s) => (s.steps[0].ask = { cidade: ' ' })],
    ['a null ask text', (s) => (s.steps[0].ask = { cidade: null })],
  ])('refuses %s, and so does fromSpec with validateFlow', (_name, edit) => {
    const spec = hospedagemSpec();
    edit(spec);
    expect(valid(spec)).toBe(false);
    expect(() => fromSpec(spec, { registries })).toThrow(FlowConfigurationError);
  });

  it('allows nothing for field slugs or tool ids when none are registered', () => {
    const empty = ajv.compile(flowSpecSchema({ fields: {}, tools: [] }));
    expect(empty({ id: 'x', name: 'X', steps: [{ id: 'a', kind: 'prompt', prompt: 'p', tools: [] }] })).toBe(true);
    expect(empty({ id: 'x', name: 'X', steps: [{ id: 'a', kind: 'prompt', prompt: 'p', tools: ['preco'] }] })).toBe(false);
    expect(empty({ id: 'x', name: 'X', steps: [{ id: 'a', kind: 'collect', collect: ['cidade'] }] })).toBe(false);
  });
});
