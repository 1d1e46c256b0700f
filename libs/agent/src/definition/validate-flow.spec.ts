import type { FlowRegistries } from '../types/agent';
import { FlowConfigurationError } from './errors';
import { validateFlow } from './validate-flow';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures are edited into wrong shapes on purpose
type Loose = Record<string, any>;

const registries: FlowRegistries = {
  fields: {
    cidade: { type: 'string', ask: 'Pergunte em qual cidade a pessoa quer ficar.' },
    reserva: { type: 'string', description: 'Código da reserva' },
    hospedes: { type: 'integer' },
  },
  tools: ['preco', 'reservar'],
};

// tool.md's example flow.
function hospedagem(): Loose {
  return {
    id: 'hospedagem',
    name: 'Hospedagem',
    on: [{ message: ['quer reservar um quarto'] }],
    steps: [
      { id: 'onde', collect: ['cidade'] },
      { id: 'oferta', prompt: 'Apresente o preço da diária. Pergunte se pode reservar.', tools: ['preco'] },
      { id: 'confirma', prompt: 'Se a pessoa confirmou, reserve e informe o código.', collect: ['reserva'], tools: ['reservar'] },
    ],
  };
}

/** A flow with one change made by `edit`. */
function edited(edit: (flow: Loose) => void): Loose {
  const flow = hospedagem();
  edit(flow);
  return flow;
}

function thrown(flow: unknown, options?: { path?: (string | number)[] }): FlowConfigurationError {
  try {
    validateFlow(flow, registries, options);
  } catch (err) {
    if (err instanceof FlowConfigurationError) return err;
    throw err;
  }
  throw new Error('validateFlow accepted the flow');
}

describe('validateFlow accepts', () => {
  it("tool.md's example flow with no warnings", () => {
    expect(validateFlow(hospedagem(), registries)).toEqual({ warnings: [] });
  });

  it('say steps, then to a step or to "end", tools: [] and the catch-all message: []', () => {
    const flow = edited((f) => {
      f.on = [{ message: [], repeat: 'always' }, { message: ['reservar', '!cancelar'] }];
      f.tools = [];
      f.steps[0].then = 'confirma';
      f.steps[1] = { id: 'oferta', say: 'Temos quartos disponíveis.', then: 'end' };
      f.steps.push({ id: 'tchau', say: 'Até logo!' });
      f.onEnd = 'end';
      f.description = 'Reserva de quartos';
      f.instructions = 'Seja breve.';
    });
    // onde jumps to confirma, so only oferta is never reached; tchau follows confirma.
    expect(validateFlow(flow, registries).warnings).toEqual([
      { code: 'unreachable-step', message: 'flow "hospedagem", step "oferta": no step leads to it, so it never runs.', path: ['steps', 1] },
    ]);
  });

  it('a talk step with question, ask and maxAsks for the fields it collects', () => {
    const flow = edited((f) => {
      f.steps[0] = { id: 'onde', collect: ['cidade', 'hospedes'], question: 'Qual cidade?', ask: { hospedes: 'Para quantas pessoas?' }, maxAsks: 2 };
    });
    expect(validateFlow(flow, registries)).toEqual({ warnings: [] });
  });
});

describe('validateFlow refuses', () => {
  it.each<[string, unknown, string, string, (string | number)[]]>([
    [
      'a flow that is not an object',
      ['x'],
      'invalid-type',
      '[FlowConfigurationError] flow: a flow must be an object, got an array. Pass { id, name, steps: [...] }.',
      [],
    ],
    [
      'a missing id',
      edited((f) => delete f.id),
      'missing-id',
      '[FlowConfigurationError] flow (no id): it has no id. Give the flow a non-empty string id, such as "hospedagem".',
      ['id'],
    ],
    [
      'an id that is not a string',
      edited((f) => (f.id = 7)),
      'invalid-type',
      '[FlowConfigurationError] flow (no id): id must be a non-empty string, got 7. Give the flow a non-empty string id, such as "hospedagem".',
      ['id'],
    ],
    [
      'a missing name',
      edited((f) => delete f.name),
      'missing-name',
      '[FlowConfigurationError] flow "hospedagem": it has no name. Give the flow a name for people, such as "Hospedagem".',
      ['name'],
    ],
    [
      'missing steps',
      edited((f) => delete f.steps),
      'missing-steps',
      '[FlowConfigurationError] flow "hospedagem": it has no steps. Add at least one step, such as { id: "inicio", prompt: "…" }.',
      ['steps'],
    ],
    [
      'an empty steps list',
      edited((f) => (f.steps = [])),
      'missing-steps',
      '[FlowConfigurationError] flow "hospedagem": its steps list is empty. Add at least one step, such as { id: "inicio", prompt: "…" }.',
      ['steps'],
    ],
    [
      'steps that are not an array',
      edited((f) => (f.steps = { onde: {} })),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem": steps must be an array of steps, got an object. Set steps to an array of steps, or remove it.',
      ['steps'],
    ],
    [
      'onEnd other than "end", "stay" or "reset"',
      edited((f) => (f.onEnd = 'later')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem": onEnd must be "end", "stay" or "reset", got "later". Set onEnd to "end", "stay" or "reset", or remove it.',
      ['onEnd'],
    ],
    [
      'a description that is not a string',
      edited((f) => (f.description = 3)),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem": description must be a string, got 3. Set description to a string, or remove it.',
      ['description'],
    ],
    [
      'a step without an id',
      edited((f) => delete f.steps[1].id),
      'missing-id',
      '[FlowConfigurationError] flow "hospedagem", step at index 1: it has no id. Give the step a non-empty string id, unique in its flow.',
      ['steps', 1, 'id'],
    ],
    [
      'a step that is not an object',
      edited((f) => (f.steps[2] = 'confirma')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step at index 2: a step must be an object, got "confirma". Write the step as { id, prompt }, { id, collect: [...] } or { id, say }.',
      ['steps', 2],
    ],
    [
      'a duplicate step id',
      edited((f) => (f.steps[2].id = 'onde')),
      'duplicate-step-id',
      '[FlowConfigurationError] flow "hospedagem", step "onde": the id "onde" is already used by the step at index 0. Give each step of a flow its own id.',
      ['steps', 2, 'id'],
    ],
    [
      'the reserved step id "end"',
      edited((f) => (f.steps[2].id = 'end')),
      'reserved-step-id',
      '[FlowConfigurationError] flow "hospedagem", step "end": "end" is reserved for then: "end". Rename the step.',
      ['steps', 2, 'id'],
    ],
    [
      'a step that does nothing',
      edited((f) => (f.steps[1] = { id: 'oferta', tools: ['preco'] })),
      'empty-step',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": it does nothing: it has no prompt, collect or say. Add a prompt, a collect list or a say text, or remove the step.',
      ['steps', 1],
    ],
    [
      'a step whose only action is an empty collect list',
      edited((f) => (f.steps[0] = { id: 'onde', collect: [] })),
      'empty-step',
      '[FlowConfigurationError] flow "hospedagem", step "onde": it does nothing: it has no prompt, collect or say. Add a prompt, a collect list or a say text, or remove the step.',
      ['steps', 0],
    ],
    [
      'a step that both talks and says',
      edited((f) => (f.steps[1].say = 'Olá')),
      'mixed-step',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": it does two things: say and prompt. Split it into a say step and a talk step.',
      ['steps', 1, 'prompt'],
    ],
    [
      'a say step that collects',
      edited((f) => (f.steps[0].say = 'Olá')),
      'mixed-step',
      '[FlowConfigurationError] flow "hospedagem", step "onde": it does two things: say and collect. Split it into a say step and a talk step.',
      ['steps', 0, 'collect'],
    ],
    [
      'a say step with tools',
      edited((f) => (f.steps[1] = { id: 'oferta', say: 'Olá', tools: ['preco'] })),
      'mixed-step',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": a say step sends its text word for word and takes no tools. Remove tools, or make it a talk step with a prompt.',
      ['steps', 1, 'tools'],
    ],
    [
      'an empty say text',
      edited((f) => (f.steps[1] = { id: 'oferta', say: '  ' })),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": say must be a non-empty string, got "  ". Write the text to send in say.',
      ['steps', 1, 'say'],
    ],
    [
      'an unknown field in collect',
      edited((f) => (f.steps[0].collect = ['cidade', 'pais'])),
      'unknown-field',
      '[FlowConfigurationError] flow "hospedagem", step "onde": collect names "pais", which is not a field of the agent. Declare "pais" in the agent\'s fields, or use one of "cidade", "reserva", "hospedes".',
      ['steps', 0, 'collect', 1],
    ],
    [
      'a collect entry that is not a string',
      edited((f) => (f.steps[0].collect = [{ slug: 'cidade' }])),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": collect[0] must be a field slug, got an object. Write each entry of collect as a field slug.',
      ['steps', 0, 'collect', 0],
    ],
    [
      'an unknown field in ask',
      edited((f) => (f.steps[0].ask = { pais: 'De qual país?' })),
      'unknown-field',
      '[FlowConfigurationError] flow "hospedagem", step "onde": ask names "pais", which is not a field of the agent. Declare "pais" in the agent\'s fields, or use one of "cidade", "reserva", "hospedes".',
      ['steps', 0, 'ask', 'pais'],
    ],
    [
      'an ask text that is not a string',
      edited((f) => (f.steps[0].ask = { cidade: null })),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": ask.cidade must be a non-empty string, got null. Set ask.cidade to a non-empty string, or remove it.',
      ['steps', 0, 'ask', 'cidade'],
    ],
    [
      'an unknown tool in a step',
      edited((f) => (f.steps[1].tools = ['preco', 'clima'])),
      'unknown-tool',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": tools names "clima", which is not a registered tool. Register a tool with id "clima", or use one of "preco", "reservar".',
      ['steps', 1, 'tools', 1],
    ],
    [
      'an unknown tool in the flow',
      edited((f) => (f.tools = ['clima'])),
      'unknown-tool',
      '[FlowConfigurationError] flow "hospedagem": tools names "clima", which is not a registered tool. Register a tool with id "clima", or use one of "preco", "reservar".',
      ['tools', 0],
    ],
    [
      'a tools list that is not an array',
      edited((f) => (f.steps[1].tools = 'preco')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": tools must be an array of tool ids, got "preco". Set tools to an array of tool ids ([] offers none), or remove it.',
      ['steps', 1, 'tools'],
    ],
    [
      'a then that names no step',
      edited((f) => (f.steps[0].then = 'fim')),
      'unknown-step',
      '[FlowConfigurationError] flow "hospedagem", step "onde": then names "fim", which is not a step of this flow. Use one of "onde", "oferta", "confirma", "end".',
      ['steps', 0, 'then'],
    ],
    [
      'a then that is not a string',
      edited((f) => (f.steps[0].then = 2)),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": then must be a step id, "end" or { flow }, got 2. Set then to a step id, "end" or { flow }, or remove it.',
      ['steps', 0, 'then'],
    ],
    [
      'a question on a step that collects nothing',
      edited((f) => (f.steps[1].question = 'Posso reservar?')),
      'question-without-collect',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": it has a question but collects nothing. Add the fields the question asks for to collect, or use prompt instead.',
      ['steps', 1, 'question'],
    ],
    [
      'maxAsks of 0',
      edited((f) => (f.steps[0].maxAsks = 0)),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": maxAsks must be a positive integer, got 0. Set maxAsks to 1 or more, or remove it (default 3).',
      ['steps', 0, 'maxAsks'],
    ],
    [
      'maxAsks that is not an integer',
      edited((f) => (f.steps[0].maxAsks = 2.5)),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": maxAsks must be a positive integer, got 2.5. Set maxAsks to 1 or more, or remove it (default 3).',
      ['steps', 0, 'maxAsks'],
    ],
    [
      'maxAsks as a string',
      edited((f) => (f.steps[0].maxAsks = '3')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "onde": maxAsks must be a positive integer, got "3". Set maxAsks to 1 or more, or remove it (default 3).',
      ['steps', 0, 'maxAsks'],
    ],
    [
      'an empty prompt',
      edited((f) => (f.steps[1].prompt = '')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", step "oferta": prompt must be a non-empty string, got "". Set prompt to a non-empty string, or remove it.',
      ['steps', 1, 'prompt'],
    ],
    [
      'triggers that are not an array',
      edited((f) => (f.on = { message: [] })),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem": on must be an array of triggers, got an object. Write on: [{ message: ["…"] }].',
      ['on'],
    ],
    [
      'a trigger of no kind',
      edited((f) => (f.on = [{ repeat: 'once' }])),
      'invalid-trigger',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 0: it says neither message, mention, event nor silence. Write one trigger per kind: { message: [...] }, { mention: [...] }, { event: "…" } or { silence: "2h" }.',
      ['on', 0],
    ],
    [
      'an empty phrase',
      edited((f) => (f.on = [{ message: ['reservar', ' '] }])),
      'empty-phrase',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 0: phrase 1 (" ") has no text. Write the phrase, or remove it ("!" alone excludes nothing).',
      ['on', 0, 'message', 1],
    ],
    [
      'an exclusion with no text',
      edited((f) => (f.on = [{ message: ['reservar', '!'] }])),
      'empty-phrase',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 0: phrase 1 ("!") has no text. Write the phrase, or remove it ("!" alone excludes nothing).',
      ['on', 0, 'message', 1],
    ],
    [
      'a phrase that is not a string',
      edited((f) => (f.on = [{ message: [42] }])),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 0: message[0] must be a string, got 42. Write each phrase as a string.',
      ['on', 0, 'message', 0],
    ],
    [
      'a phrase list of exclusions only',
      edited((f) => (f.on = [{ message: [] }, { message: ['!cancelar', ' !desistir'] }])),
      'only-exclusions',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 1: every phrase is an exclusion ("!"), so no message can match. Add at least one phrase without "!", or use message: [] for a catch-all.',
      ['on', 1, 'message'],
    ],
    [
      'a repeat other than once or always',
      edited((f) => (f.on[0].repeat = 'never')),
      'invalid-type',
      '[FlowConfigurationError] flow "hospedagem", trigger at index 0: repeat must be "once", "always" or { cooldown: "<duration>" }, got "never". Set repeat to "once", "always" or { cooldown: "<duration>" }, or remove it.',
      ['on', 0, 'repeat'],
    ],
  ])('%s', (_name, flow, code, message, path) => {
    const err = thrown(flow);
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    expect(err.path).toEqual(path);
  });

  it('an unknown tool when the agent has no tools, saying so', () => {
    const err = (() => {
      try {
        validateFlow(edited((f) => (f.steps[1].tools = ['preco'])), { ...registries, tools: [] });
      } catch (e) {
        return e as FlowConfigurationError;
      }
      throw new Error('accepted');
    })();
    expect(err.message).toBe(
      '[FlowConfigurationError] flow "hospedagem", step "oferta": tools names "preco", which is not a registered tool. Register a tool with id "preco" (the agent has none), or remove it from tools.',
    );
  });

  it('reports paths below the path it was given, as an array and a JSON Pointer', () => {
    const err = thrown(edited((f) => (f.steps[1].tools = ['preco', 'clima'])), { path: ['flows', 0] });
    expect(err.path).toEqual(['flows', 0, 'steps', 1, 'tools', 1]);
    expect(err.pointer).toBe('/flows/0/steps/1/tools/1');
    expect(err.name).toBe('FlowConfigurationError');
    expect(err).toBeInstanceOf(Error);
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      code: 'unknown-tool',
      message:
        '[FlowConfigurationError] flow "hospedagem", step "oferta": tools names "clima", which is not a registered tool. Register a tool with id "clima", or use one of "preco", "reservar".',
      details: { path: ['flows', 0, 'steps', 1, 'tools', 1], pointer: '/flows/0/steps/1/tools/1', where: 'flow "hospedagem", step "oferta"' },
    });
  });

  it('escapes "/" and "~" in JSON Pointers', () => {
    const err = thrown(edited((f) => (f.steps[0].ask = { 'a/b~c': 'x' })));
    expect(err.pointer).toBe('/steps/0/ask/a~1b~0c');
  });
});

describe('validateFlow warns', () => {
  it('about steps nothing leads to', () => {
    const flow = edited((f) => (f.steps[0].then = 'confirma'));
    expect(validateFlow(flow, registries).warnings).toEqual([
      { code: 'unreachable-step', message: 'flow "hospedagem", step "oferta": no step leads to it, so it never runs.', path: ['steps', 1] },
    ]);
  });

  it('about ask text for a field the step does not collect, duplicates, unused maxAsks, unknown keys and no trigger', () => {
    const flow = edited((f) => {
      delete f.on;
      f.colour = 'blue';
      f.steps[0] = { id: 'onde', collect: ['cidade', 'cidade'], ask: { hospedes: 'Quantos?' }, toolz: [] };
      f.steps[1].tools = ['preco', 'preco'];
      f.steps[1].maxAsks = 2;
    });
    expect(validateFlow(flow, registries).warnings).toEqual([
      { code: 'no-trigger', message: 'flow "hospedagem": it has no trigger (on), so no message starts it.', path: [] },
      { code: 'unknown-key', message: 'flow "hospedagem": "colour" is not a flow property and is ignored.', path: ['colour'] },
      { code: 'duplicate-collect', message: 'flow "hospedagem", step "onde": collect lists "cidade" twice.', path: ['steps', 0, 'collect', 1] },
      {
        code: 'ask-not-collected',
        message: 'flow "hospedagem", step "onde": ask has text for "hospedes", which this step does not collect, so it is never used.',
        path: ['steps', 0, 'ask', 'hospedes'],
      },
      { code: 'unknown-key', message: 'flow "hospedagem", step "onde": "toolz" is not a step property and is ignored.', path: ['steps', 0, 'toolz'] },
      { code: 'duplicate-tool', message: 'flow "hospedagem", step "oferta": tools lists "preco" twice.', path: ['steps', 1, 'tools', 1] },
      { code: 'unused-option', message: 'flow "hospedagem", step "oferta": maxAsks has no effect on a step that collects nothing.', path: ['steps', 1, 'maxAsks'] },
    ]);
  });
});
