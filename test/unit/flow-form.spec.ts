// The console's flow editor model (apps/admin/src/flows): any valid FlowSpec loads into the form
// and saves back unchanged; what the editor builds is a FlowSpec the engine accepts; and the
// JSON path of a publish error names the input it concerns.
import { flowSpecSchema, fromSpec, validateFlows, type FieldsDef, type FlowRegistries } from '@falai/agent';
import { validateForPublish } from '../../apps/api/src/admin/agents/validate-for-publish';

// The console is an ES module package; the root tsconfig compiles tests as CommonJS.
type Model = typeof import('../../apps/admin/src/agents/agent-form-model.js', { with: { 'resolution-mode': 'import' } });
type FlowForm = typeof import('../../apps/admin/src/flows/flow-form.js', { with: { 'resolution-mode': 'import' } });
type Names = typeof import('../../apps/admin/src/flows/registered-names.js', { with: { 'resolution-mode': 'import' } });
type AgentConfig = import('../../apps/admin/src/agents/agent-config.js', { with: { 'resolution-mode': 'import' } }).AgentConfig;
type FlowSpec = import('../../apps/admin/src/agents/agent-config.js', { with: { 'resolution-mode': 'import' } }).FlowSpec;

let model: Model;
let forms: FlowForm;
let names: Names;
beforeAll(async () => {
  names = await import('../../apps/admin/src/flows/registered-names.js');
  model = await import('../../apps/admin/src/agents/agent-form-model.js');
  forms = await import('../../apps/admin/src/flows/flow-form.js');
});

const fields: AgentConfig['fields'] = { cidade: { type: 'string' }, email: { type: 'string' }, vip: { type: 'boolean' }, hospedes: { type: 'integer' } };
const registries: FlowRegistries = {
  fields: fields as FieldsDef,
  tools: ['preco'],
  actions: { cobrar: { type: 'object', properties: { valor: { type: 'number' } }, required: ['valor'] }, avisar: undefined },
  conditions: ['temVaga'],
  flows: ['pedido', 'humano'],
};

const agent = (flows: FlowSpec[]): AgentConfig => ({
  provider: { kind: 'scripted', model: 'script' },
  fields,
  flows,
  tools: ['preco'],
});

/** Every step kind, branch, predicate shape, target, trigger and option of the language. */
function pedido(): FlowSpec {
  return {
    id: 'pedido',
    name: 'Pedido',
    on: [
      { message: ['quero pagar', '!cancelar'], repeat: { cooldown: '1h' } },
      { mention: ['meu e-mail'], extract: ['email'] },
      { event: 'carrinho', after: '30m', repeat: 'always' },
      { silence: '2h', repeat: 'once' },
      { message: [] },
    ],
    steps: [
      { id: 'vip', kind: 'if', if: { equals: { vip: true, hospedes: 2, cidade: null }, known: ['cidade'], condition: 'temVaga' }, then: 'cobra', else: 'pergunta' },
      {
        id: 'pergunta',
        kind: 'prompt',
        prompt: 'Pergunte se quer pagar agora.',
        tools: ['preco'],
        branches: [{ when: 'Quer falar com alguém?', then: { flow: 'humano' } }, { if: 'temVaga', then: 'cobra' }, { if: { condition: ['temVaga'] }, when: 'Quer pagar?', then: 'end' }, { then: 'pix' }],
      },
      { id: 'onde', kind: 'collect', collect: ['cidade', 'hospedes'], ask: { cidade: 'Qual cidade?' }, question: 'Para onde?', maxAsks: 2, tools: [] },
      { id: 'cobra', kind: 'do', do: 'cobrar', with: { valor: 420 }, onFail: 'falhou' },
      { id: 'pausa', kind: 'wait', wait: '3s' },
      { id: 'pix', kind: 'say', say: 'Envie o Pix.' },
      { id: 'aguarda', kind: 'wait', wait: { event: 'pago', upTo: '1d' }, else: 'end' },
      { id: 'so-evento', kind: 'wait', wait: { event: 'pago' } },
      { id: 'lembra', kind: 'wait', wait: '24h', businessHours: { start: '09:00', end: '18:00', days: [1, 2, 3, 4, 5], timeZone: 'America/Sao_Paulo' }, else: 'end' },
      { id: 'lembra2', kind: 'wait', wait: '3d', businessHours: { start: '08:00', end: '12:00' } },
      { id: 'aviso', kind: 'do', do: 'avisar', then: 'end' },
      { id: 'falhou', kind: 'say', say: 'Não consegui cobrar.', then: { flow: 'humano' } },
    ],
    onEnd: 'reset',
  };
}

const humano = (): FlowSpec => ({ id: 'humano', name: 'Humano', description: '', instructions: '', on: [], tools: [], steps: [{ id: 'oi', kind: 'prompt', prompt: 'Diga oi.', collect: [], ask: {} }], onEnd: 'stay' });

const roundTrip = (config: AgentConfig) => model.configFromDraft(model.draftFromConfig(structuredClone(config)));

describe('flow editor model: FlowSpec → form → FlowSpec', () => {
  it('the fixture is a valid flow language spec (the engine accepts it)', () => {
    const flows = [pedido(), humano()].map((s, i) => fromSpec(s, { registries, path: ['flows', i] }));
    expect(() => validateFlows(flows, registries, { path: ['flows'] })).not.toThrow();
  });

  it('saves every valid FlowSpec unchanged: kinds, branches, predicates, targets, triggers, hours, onEnd', () => {
    const config = agent([pedido(), humano()]);
    expect(roundTrip(config).flows).toEqual(config.flows);
  });

  it('keeps empty values that differ from an absent key: tools: [] offers no tools, description: ""', () => {
    const saved = roundTrip(agent([humano()])).flows[0];
    expect(saved).toEqual(humano());
    expect(saved.tools).toEqual([]);
  });

  it('keeps keys it does not know (newer engine options) on flows, triggers and steps', () => {
    const spec = { ...pedido(), later: { x: 1 } } as FlowSpec;
    spec.on![0].someday = true;
    spec.steps[0].future = 'kept';
    expect(roundTrip(agent([spec])).flows[0]).toEqual(spec);
  });

  it('drops nulls, as fromSpec does', () => {
    const spec = { ...humano(), description: null, steps: [{ id: 'oi', kind: 'prompt', prompt: 'Oi.', say: null, branches: null }] } as FlowSpec;
    expect(roundTrip(agent([spec])).flows[0]).toEqual({ ...humano(), description: undefined, steps: [{ id: 'oi', kind: 'prompt', prompt: 'Oi.' }] });
  });
});

describe('flow editor model: what the inputs build', () => {
  /** A flow as a tenant fills it in: a talk step with a branch, an if step, a wait with else, a silence trigger. */
  function filledIn() {
    const draft = model.draftFromConfig(agent([]));
    const flow = forms.emptyFlow('reserva');
    flow.name = 'Reserva';
    flow.on[0].message = ['quero reservar'];
    flow.on.push({ ...forms.emptyTrigger('silence'), silence: '2h', repeat: 'cooldown', cooldown: '1d' });
    const ask = { ...forms.emptyStep('collect', 'onde'), collect: ['cidade'], prompt: 'Pergunte a cidade.' };
    ask.branches = [{ when: 'Quer falar com um humano?', predicate: forms.emptyPredicate(), then: 'tchau' }];
    const check = { ...forms.emptyStep('if', 'confere'), then: 'espera', else: 'tchau' };
    check.predicate.equals = [{ field: 'hospedes', op: 'is', value: '2' }, { field: 'vip', op: 'unknown', value: '' }];
    check.predicate.known = ['cidade'];
    const wait = { ...forms.emptyStep('wait', 'espera'), else: 'end' };
    wait.wait.duration = '24h';
    wait.hours = { enabled: true, start: '09:00', end: '18:00', days: [], timeZone: '' };
    const bye = { ...forms.emptyStep('say', 'tchau'), say: 'Até logo!' };
    flow.steps = [ask, check, wait, bye];
    draft.flows = [flow];
    return draft;
  }

  it('writes each step kind with its own keys only and the engine publishes it', () => {
    const config = model.configFromDraft(filledIn());
    expect(config.flows).toEqual([
      {
        id: 'reserva',
        name: 'Reserva',
        on: [{ message: ['quero reservar'] }, { silence: '2h', repeat: { cooldown: '1d' } }],
        steps: [
          { id: 'onde', kind: 'collect', collect: ['cidade'], prompt: 'Pergunte a cidade.', branches: [{ when: 'Quer falar com um humano?', then: 'tchau' }] },
          { id: 'confere', kind: 'if', if: { equals: { hospedes: 2, vip: null }, known: ['cidade'] }, then: 'espera', else: 'tchau' },
          { id: 'espera', kind: 'wait', wait: '24h', businessHours: { start: '09:00', end: '18:00' }, else: 'end' },
          { id: 'tchau', kind: 'say', say: 'Até logo!' },
        ],
      },
    ]);
    expect(validateForPublish(config, new Set(['preco'])).config.flows).toEqual(config.flows);
  });

  it('a step switched to another kind leaves the old kind’s keys behind', () => {
    const draft = filledIn();
    draft.flows[0].steps[2].kind = 'say';
    draft.flows[0].steps[2].say = 'Oi';
    draft.flows[0].steps[0].kind = 'prompt';
    const steps = model.configFromDraft(draft).flows[0].steps;
    expect(steps[2]).toEqual({ id: 'espera', kind: 'say', say: 'Oi' });
    // A prompt step takes no question but keeps its branches.
    expect(Object.keys(steps[0]).sort()).toEqual(['branches', 'collect', 'id', 'kind', 'prompt']);
  });

  it('an event wait writes { event, upTo } and never business hours; event triggers write after', () => {
    const draft = filledIn();
    const wait = draft.flows[0].steps[2];
    wait.wait = { mode: 'event', duration: '24h', event: 'pago', upTo: '3d' };
    draft.flows[0].on[1] = { ...forms.emptyTrigger('event'), event: 'carrinho', after: '30m' };
    const flow = model.configFromDraft(draft).flows[0];
    expect(flow.steps[2]).toEqual({ id: 'espera', kind: 'wait', wait: { event: 'pago', upTo: '3d' }, else: 'end' });
    expect(flow.on![1]).toEqual({ event: 'carrinho', after: '30m' });
  });

  it('an equals value edited as text takes the field’s type; an unchanged one keeps its own', () => {
    const draft = model.draftFromConfig(agent([pedido()]));
    const equals = draft.flows[0].steps[0].predicate.equals;
    equals[1].value = '3';
    const saved = model.configFromDraft(draft).flows[0].steps[0].if as { equals: Record<string, unknown> };
    expect(saved.equals).toEqual({ vip: true, hospedes: 3, cidade: null });
  });

  it('action parameters that are not JSON are refused before saving, at their input', () => {
    const draft = model.draftFromConfig(agent([pedido()]));
    draft.flows[0].steps[3].with = '{ valor: ';
    expect(() => model.configFromDraft(draft)).toThrow(expect.objectContaining({ formPath: 'draft.flows.0.steps.3.with' }));
  });
});

describe('flow editor model: publish error path → input', () => {
  const draft = () => model.draftFromConfig(agent([pedido(), humano()]));

  it.each<[(string | number)[], string]>([
    [['flows', 0, 'steps', 4, 'wait'], 'draft.flows.0.steps.4.wait.duration'],
    [['flows', 0, 'steps', 6, 'wait'], 'draft.flows.0.steps.6.wait.event'],
    [['flows', 0, 'steps', 6, 'wait', 'upTo'], 'draft.flows.0.steps.6.wait.upTo'],
    [['flows', 0, 'steps', 8, 'businessHours', 'timeZone'], 'draft.flows.0.steps.8.hours.timeZone'],
    [['flows', 0, 'steps', 8, 'else'], 'draft.flows.0.steps.8.else'],
    [['flows', 0, 'steps', 1, 'branches', 0, 'then', 'flow'], 'draft.flows.0.steps.1.branches.0.then'],
    [['flows', 0, 'steps', 1, 'branches', 2, 'when'], 'draft.flows.0.steps.1.branches.2.when'],
    [['flows', 0, 'steps', 1, 'branches', 1, 'if'], 'draft.flows.0.steps.1.branches.1.predicate.conditions'],
    [['flows', 0, 'steps', 0, 'if', 'equals', 'hospedes'], 'draft.flows.0.steps.0.predicate.equals.1.field'],
    [['flows', 0, 'steps', 0, 'if', 'known', 0], 'draft.flows.0.steps.0.predicate.known'],
    [['flows', 0, 'steps', 0, 'if', 'condition'], 'draft.flows.0.steps.0.predicate.conditions'],
    [['flows', 0, 'steps', 3, 'do'], 'draft.flows.0.steps.3.action'],
    [['flows', 0, 'steps', 3, 'with', 'valor'], 'draft.flows.0.steps.3.with'],
    [['flows', 0, 'steps', 3, 'onFail'], 'draft.flows.0.steps.3.onFail'],
    [['flows', 0, 'steps', 2, 'ask', 'cidade'], 'draft.flows.0.steps.2.askList.0.text'],
    [['flows', 0, 'steps', 1, 'tools', 0], 'draft.flows.0.steps.1.tools'],
    [['flows', 0, 'on', 0, 'repeat', 'cooldown'], 'draft.flows.0.on.0.cooldown'],
    [['flows', 0, 'on', 2, 'repeat'], 'draft.flows.0.on.2.repeat'],
    [['flows', 0, 'on', 1, 'mention', 0], 'draft.flows.0.on.1.message'],
    [['flows', 0, 'on', 1, 'extract', 0], 'draft.flows.0.on.1.extract'],
    [['flows', 0, 'on', 2, 'after'], 'draft.flows.0.on.2.after'],
    [['flows', 0, 'on', 3, 'silence'], 'draft.flows.0.on.3.silence'],
    [['flows', 0, 'on', 3], 'draft.flows.0.on.3.kind'],
    [['flows', 1, 'onEnd'], 'draft.flows.1.onEnd'],
    [['flows', 1, 'steps', 0], 'draft.flows.1.steps.0.id'],
  ])('%j → %s', (path, input) => {
    expect(model.formPathOf(path, draft())).toBe(input);
  });

  it('the path of the engine’s refusal of a bad wait duration names the duration input', () => {
    const config = agent([{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'a', kind: 'say', say: 'Oi' }, { id: 'b', kind: 'wait', wait: '5 minutos', else: 'end' }] }]);
    const saved = roundTrip(config);
    let path: (string | number)[] = [];
    try {
      validateForPublish(saved, new Set(['preco']));
    } catch (err) {
      path = (err as { path: (string | number)[] }).path;
    }
    expect(path).toEqual(['flows', 0, 'steps', 1, 'wait']);
    expect(model.formPathOf(path, model.draftFromConfig(saved))).toBe('draft.flows.0.steps.1.wait.duration');
  });
});

describe('registered action and condition names for the editor’s selects', () => {
  it('reads them from the engine’s flow schema (what GET /v1/admin/flow-schema answers)', () => {
    expect(names.namesFromFlowSchema(flowSpecSchema(registries))).toEqual({ actions: ['cobrar', 'avisar'], conditions: ['temVaga'] });
  });

  it('has none when the schema lists none (the inputs then take typed names)', () => {
    expect(names.namesFromFlowSchema(flowSpecSchema({ fields: {}, tools: [] }))).toEqual({ actions: [], conditions: [] });
    expect(names.namesFromFlowSchema(null)).toEqual({ actions: [], conditions: [] });
  });
});
