// The flow editor's graph (apps/admin/src/flows/graph): which nodes and labelled edges a flow's
// form makes, and on which node a publish error lands.
import { hospedagemFlowSpec } from '@switchboard/agent-config';
import type { FlowSpec } from '@falai/agent';

// The console is an ES module package; the root tsconfig compiles tests as CommonJS.
type Graph = typeof import('../../apps/admin/src/flows/graph/flow-graph-model.js', { with: { 'resolution-mode': 'import' } });
type FlowForm = typeof import('../../apps/admin/src/flows/flow-form.js', { with: { 'resolution-mode': 'import' } });
type Form = import('../../apps/admin/src/flows/flow-form.js', { with: { 'resolution-mode': 'import' } }).FlowForm;

let graphs: Graph;
let forms: FlowForm;
beforeAll(async () => {
  graphs = await import('../../apps/admin/src/flows/graph/flow-graph-model.js');
  forms = await import('../../apps/admin/src/flows/flow-form.js');
});

const form = (spec: FlowSpec): Form => forms.flowFromSpec(spec as never);
const edgesOf = (g: ReturnType<Graph['flowGraph']>) => g.edges.map((e) => `${e.source} -${e.label}-> ${e.target}`);

describe('the flow graph', () => {
  it("draws the Concierge's flow as its trigger, three steps in a line and the end", () => {
    const g = graphs.flowGraph(form(hospedagemFlowSpec), 0);
    expect(g.nodes.map((n) => [n.id, n.kind, n.title, n.stepKind])).toEqual([
      ['trigger-0', 'trigger', 'message', undefined],
      ['step-0', 'step', 'onde', 'collect'],
      ['step-1', 'step', 'oferta', 'prompt'],
      ['step-2', 'step', 'confirma', 'collect'],
      ['end', 'end', 'End', undefined],
    ]);
    expect(edgesOf(g)).toEqual(['trigger-0 -starts-> step-0', 'step-0 -then-> step-1', 'step-1 -then-> step-2', 'step-2 -then-> end']);
    expect(g.nodes.find((n) => n.id === 'step-1')?.details).toEqual(['prompt: Apresente o preço da diária. Pergunte s…', 'tools: preco']);
    expect(g.nodes.find((n) => n.id === 'step-2')?.details).toContain('fields: reserva');
    expect(g.nodes[0].details).toEqual(['“quer reservar um quarto”']);
  });

  it("puts each step's share of the agent's cost on its node, and none on steps that cost nothing", () => {
    const g = graphs.flowGraph(form(hospedagemFlowSpec), 0, null, new Map([['oferta', 0.471], ['elsewhere', 0.2]]));
    expect(g.nodes.filter((n) => n.costShare !== undefined).map((n) => [n.id, n.costShare])).toEqual([['step-1', 0.471]]);
  });

  it('labels else, on fail, branches and chains, and follows explicit targets', () => {
    const spec: FlowSpec = {
      id: 'pedido',
      on: [{ event: 'pago' }],
      steps: [
        { id: 'pergunta', kind: 'collect', collect: ['cidade'], branches: [{ when: 'quer falar com alguém', then: { flow: 'humano' } }, { if: { known: ['cidade'] }, then: 'cobra' }] },
        { id: 'vip', kind: 'if', if: { equals: { vip: true } }, then: 'cobra', else: 'end' },
        { id: 'cobra', kind: 'do', do: 'cobrar', onFail: 'desculpa', then: 'end' },
        { id: 'desculpa', kind: 'say', say: 'Não consegui cobrar.' },
      ],
    } as FlowSpec;
    const g = graphs.flowGraph(form(spec), 2);
    expect(edgesOf(g)).toEqual([
      'trigger-0 -starts-> step-0',
      'step-0 -then-> step-1',
      'step-0 -branch 1: quer falar com alguém-> flow:humano',
      'step-0 -branch 2-> step-2',
      'step-1 -if it holds-> step-2',
      'step-1 -else-> end',
      'step-2 -then-> end',
      'step-2 -on fail-> step-3',
      'step-3 -then-> end',
    ]);
    expect(g.nodes.find((n) => n.id === 'trigger-0')?.title).toBe('event: pago');
    expect(g.nodes.find((n) => n.id === 'flow:humano')).toMatchObject({ kind: 'flow', title: 'flow humano' });
    expect(g.nodes.find((n) => n.id === 'step-2')?.details).toEqual(['does: cobrar']);
  });

  it('puts a publish error on the node its path names, and only for its own flow', () => {
    const error = { message: 'Step "oferta" uses tool "reservar", which the agent does not allow.', path: ['flows', 0, 'steps', 1, 'tools', 0] };
    const g = graphs.flowGraph(form(hospedagemFlowSpec), 0, error);
    expect(g.nodes.filter((n) => n.error).map((n) => [n.id, n.error])).toEqual([['step-1', error.message]]);
    expect(graphs.flowGraph(form(hospedagemFlowSpec), 1, error).nodes.some((n) => n.error)).toBe(false);
    const onTrigger = graphs.flowGraph(form(hospedagemFlowSpec), 0, { message: 'bad phrase', path: ['flows', 0, 'on', 0, 'message'] });
    expect(onTrigger.nodes.find((n) => n.error)?.id).toBe('trigger-0');
  });

  it('draws a flow without steps as its triggers going to the end', () => {
    const g = graphs.flowGraph(form({ id: 'vazio', on: [{ message: ['oi'] }], steps: [] } as unknown as FlowSpec), 0);
    expect(edgesOf(g)).toEqual(['trigger-0 -starts-> end']);
  });
});
