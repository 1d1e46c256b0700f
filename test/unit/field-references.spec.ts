// Deleting a field in the console's agent editor: where the flows use it, and the edits that
// take those uses out so the draft still passes the engine's checks (apps/admin/src/flows/field-references.ts).
import { fromSpec, validateFlows, type FieldsDef, type FlowRegistries } from '@falai/agent';

type Model = typeof import('../../apps/admin/src/agents/agent-form-model.js', { with: { 'resolution-mode': 'import' } });
type Refs = typeof import('../../apps/admin/src/flows/field-references.js', { with: { 'resolution-mode': 'import' } });
type Errors = typeof import('../../apps/admin/src/agents/form-errors.js', { with: { 'resolution-mode': 'import' } });
type AgentConfig = import('../../apps/admin/src/agents/agent-config.js', { with: { 'resolution-mode': 'import' } }).AgentConfig;

let model: Model;
let refs: Refs;
let errors: Errors;
beforeAll(async () => {
  model = await import('../../apps/admin/src/agents/agent-form-model.js');
  refs = await import('../../apps/admin/src/flows/field-references.js');
  errors = await import('../../apps/admin/src/agents/form-errors.js');
});

const config = (): AgentConfig => ({
  provider: { kind: 'scripted', model: 'script' },
  fields: { cidade: { type: 'string' }, email: { type: 'string' }, vip: { type: 'boolean' } },
  tools: [],
  flows: [
    {
      id: 'pedido',
      name: 'Pedido',
      on: [{ message: ['quero reservar'] }, { mention: ['minha cidade'], extract: ['cidade', 'email'] }],
      steps: [
        { id: 'vip', kind: 'if', if: { equals: { vip: true, cidade: null }, known: ['cidade'] }, then: 'onde', else: 'onde' },
        {
          id: 'onde',
          kind: 'collect',
          collect: ['cidade', 'email'],
          ask: { cidade: 'Qual cidade?', email: 'Seu e-mail?' },
          branches: [{ if: { known: ['cidade', 'email'] }, then: 'fim' }],
        },
        { id: 'fim', kind: 'say', say: 'Obrigado!' },
      ],
    },
  ],
});

/** Sets `value` at a dotted form path (`draft.flows.0.steps.1.collect`) of `root`. */
function setAt(root: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split('.');
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

describe('field references', () => {
  it('lists every use of a field in the flows, as people read it', () => {
    const draft = model.draftFromConfig(config());
    expect(refs.fieldReferences(draft.flows, 'cidade').map((r) => r.where)).toEqual([
      'Flow “Pedido”, trigger 2: extracts it',
      'Flow “Pedido”, step “vip”: its condition tests it',
      'Flow “Pedido”, step “onde”: collects it',
      'Flow “Pedido”, step “onde”: says how to ask for it',
      'Flow “Pedido”, step “onde”, branch 1: tests it',
    ]);
    expect(refs.fieldReferences(draft.flows, 'nada')).toEqual([]);
  });

  it('removing the field and its uses leaves a draft the engine accepts, with the other fields untouched', () => {
    const draft = model.draftFromConfig(config());
    const form = { draft } as unknown as Record<string, unknown>;
    for (const edit of refs.removeFieldReferenceEdits(draft.flows, 'cidade')) setAt(form, edit.path, edit.value);
    draft.fields = draft.fields.filter((f) => f.slug !== 'cidade');

    const saved = model.configFromDraft(draft);
    expect(saved.flows[0].on?.[1].extract).toEqual(['email']);
    expect(saved.flows[0].steps[0].if).toEqual({ equals: { vip: true } });
    expect(saved.flows[0].steps[1]).toMatchObject({ collect: ['email'], ask: { email: 'Seu e-mail?' }, branches: [{ if: { known: ['email'] }, then: 'fim' }] });

    const registries: FlowRegistries = { fields: saved.fields as FieldsDef, tools: [], actions: {}, conditions: [], flows: ['pedido'] };
    const flows = saved.flows.map((s, i) => fromSpec(s, { registries, path: ['flows', i] }));
    expect(() => validateFlows(flows, registries, { path: ['flows'] })).not.toThrow();
  });

  it('the same draft with the field gone but its uses kept is refused by the engine (what the dialog prevents)', () => {
    const saved = config();
    delete saved.fields!.cidade;
    const registries: FlowRegistries = { fields: saved.fields as FieldsDef, tools: [], actions: {}, conditions: [], flows: ['pedido'] };
    expect(() => {
      const flows = saved.flows!.map((s, i) => fromSpec(s, { registries, path: ['flows', i] }));
      validateFlows(flows, registries, { path: ['flows'] });
    }).toThrow(/cidade/);
  });
});

describe('errors by tab', () => {
  it("counts react-hook-form's errors on the tab holding each input, and a publish refusal without an input on its own tab", () => {
    const rhf = {
      name: { type: 'required', message: 'Required', ref: { nodeName: 'INPUT' } },
      draft: {
        flows: [{ steps: [undefined, { prompt: { type: 'required', message: 'Required' }, id: { type: 'required', message: 'Required' } }] }],
        fields: [{ slug: { type: 'regex', message: 'A slug is…' } }],
        maxToolLoops: { type: 'min', message: 'Too small' },
      },
    };
    const inputs = errors.errorInputs(rhf);
    expect(inputs.map((i) => i.name)).toEqual(['name', 'draft.flows.0.steps.1.prompt', 'draft.flows.0.steps.1.id', 'draft.fields.0.slug', 'draft.maxToolLoops']);
    expect(errors.errorCountsByTab(inputs)).toEqual([1, 1, 2, 1, 0, 0, 0]);
    expect(errors.errorCountsByTab([], ['flows', 0])).toEqual([0, 0, 1, 0, 0, 0, 0]);
    // Set on its input by PublishButton (type `server`): counted once, there.
    expect(errors.errorCountsByTab([{ name: 'draft.tools', type: 'server' }], ['tools', 0])).toEqual([0, 0, 0, 1, 0, 0, 0]);
  });
});
