import { FlowConfigurationError } from './errors';
import { validateAgentDefinition, validateFlows, validateIdle, type AgentDefinition } from './validate-agent';
import { validateFields } from './validate-fields';
import { validateTool } from './validate-tool';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures are edited into wrong shapes on purpose
type Loose = Record<string, any>;

const fields = {
  cidade: { type: 'string', ask: 'Pergunte em qual cidade a pessoa quer ficar.' },
  reserva: { type: 'string', description: 'Código da reserva' },
};

const preco = {
  id: 'preco',
  description: 'Preço da diária em uma cidade.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  handler: () => ({ value: { precoNoite: 420 } }),
};
const reservar = { ...preco, id: 'reservar', description: 'Confirma a reserva e devolve o código.' };

const flow = (id: string) => ({
  id,
  name: 'Hospedagem',
  on: [{ message: ['quer reservar um quarto'] }],
  steps: [
    { id: 'onde', collect: ['cidade'] },
    { id: 'oferta', prompt: 'Apresente o preço.', tools: ['preco'] },
  ],
});

function definition(edit: (d: Loose) => void = () => undefined): AgentDefinition {
  const d: Loose = { name: 'Concierge', fields: structuredClone(fields), tools: [preco, reservar], flows: [flow('hospedagem')] };
  edit(d);
  return d as AgentDefinition;
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

describe('validateAgentDefinition', () => {
  it("accepts tool.md's Concierge", () => {
    expect(validateAgentDefinition(definition())).toEqual({ warnings: [] });
  });

  it('accepts idle "silent", idle objects with registered tools, and maxToolLoops 0', () => {
    expect(validateAgentDefinition(definition((d) => (d.idle = 'silent'))).warnings).toEqual([]);
    expect(validateAgentDefinition(definition((d) => ((d.idle = { prompt: 'Ajude.', tools: ['preco'] }), (d.maxToolLoops = 0)))).warnings).toEqual([]);
  });

  it.each<[string, (d: Loose) => void, string, string, (string | number)[]]>([
    [
      'tool parameters written as the shorthand map',
      (d) => (d.tools[0] = { ...preco, parameters: { cidade: { type: 'string' } } }),
      'invalid-parameters',
      '[FlowConfigurationError] tool "preco": parameters is a shorthand map of arguments, not a JSON Schema object. Write { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] }.',
      ['tools', 0, 'parameters', 'type'],
    ],
    [
      'tool parameters with another type',
      (d) => (d.tools[1] = { ...reservar, parameters: { type: 'array', items: {} } }),
      'invalid-parameters',
      '[FlowConfigurationError] tool "reservar": parameters must be a JSON Schema with type "object", got type "array". Write { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] }.',
      ['tools', 1, 'parameters', 'type'],
    ],
    [
      'tool parameters that are not an object',
      (d) => (d.tools[0] = { ...preco, parameters: 'cidade' }),
      'invalid-parameters',
      '[FlowConfigurationError] tool "preco": parameters must be a JSON Schema object, got "cidade". Write { type: "object", properties: { cidade: { type: "string" } }, required: ["cidade"] }.',
      ['tools', 0, 'parameters'],
    ],
    [
      'tool properties that are not schemas',
      (d) => (d.tools[0] = { ...preco, parameters: { type: 'object', properties: { cidade: 'string' } } }),
      'invalid-parameters',
      '[FlowConfigurationError] tool "preco": the schema of argument "cidade" must be an object, got "string". Write it as { type: "string" } (or another JSON Schema).',
      ['tools', 0, 'parameters', 'properties', 'cidade'],
    ],
    [
      'required that is not a list of names',
      (d) => (d.tools[0] = { ...preco, parameters: { type: 'object', required: 'cidade' } }),
      'invalid-parameters',
      '[FlowConfigurationError] tool "preco": required must be an array of argument names, got "cidade". List the names of the required arguments, such as ["cidade"].',
      ['tools', 0, 'parameters', 'required'],
    ],
    [
      'a tool without an id',
      (d) => (d.tools[1] = { ...reservar, id: '' }),
      'missing-id',
      '[FlowConfigurationError] tool at index 1: it has no id (got ""). Give the tool the non-empty string id the model will call it by.',
      ['tools', 1, 'id'],
    ],
    [
      'an idle.tools id that is not a registered tool',
      (d) => (d.idle = { tools: ['preco', 'clima'] }),
      'unknown-tool',
      '[FlowConfigurationError] idle: idle.tools names "clima", which is not a registered tool. Register a tool with id "clima", or use one of "preco", "reservar".',
      ['idle', 'tools', 1],
    ],
    [
      'an idle that is neither "silent" nor an object',
      (d) => (d.idle = 'quiet'),
      'invalid-type',
      '[FlowConfigurationError] idle: idle must be "silent" or an object, got "quiet". Write idle: "silent", or idle: { prompt?, tools?, instructions? }.',
      ['idle'],
    ],
    [
      'a negative maxToolLoops',
      (d) => (d.maxToolLoops = -1),
      'invalid-type',
      '[FlowConfigurationError] agent: maxToolLoops must be a whole number, 0 or more, got -1. Set maxToolLoops to 0 (no tools) or more, or remove it (default 5).',
      ['maxToolLoops'],
    ],
    [
      'tools that are not a list',
      (d) => (d.tools = preco),
      'invalid-type',
      '[FlowConfigurationError] agent: tools must be an array of tools, got an object. Pass tools: [] when the agent has none.',
      ['tools'],
    ],
    [
      'a flow problem, with the flow index in its path',
      (d) => d.flows.push({ ...flow('cancelamento'), steps: [{ id: 'x', prompt: 'p', tools: ['cancelar'] }] }),
      'unknown-tool',
      '[FlowConfigurationError] flow "cancelamento", step "x": tools names "cancelar", which is not a registered tool. Register a tool with id "cancelar", or use one of "preco", "reservar".',
      ['flows', 1, 'steps', 0, 'tools', 0],
    ],
    [
      'two flows with one id',
      (d) => d.flows.push(flow('hospedagem')),
      'duplicate-flow-id',
      '[FlowConfigurationError] flow "hospedagem": the id "hospedagem" is already used by the flow at index 0. Give each flow of an agent its own id.',
      ['flows', 1, 'id'],
    ],
    [
      'a field with an unknown type',
      (d) => (d.fields.hospedes = { type: 'int' }),
      'invalid-field',
      '[FlowConfigurationError] field "hospedes": type must be one of "string", "number", "integer", "boolean", got "int". Set type to one of them.',
      ['fields', 'hospedes', 'type'],
    ],
  ])('refuses %s', (_name, edit, code, message, path) => {
    const err = thrown(() => validateAgentDefinition(definition(edit)));
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    expect(err.path).toEqual(path);
  });

  it('warns, without refusing, about two tools with one id (tool.md: ids are not checked for uniqueness)', () => {
    expect(validateAgentDefinition(definition((d) => d.tools.push({ ...preco }))).warnings).toEqual([
      {
        code: 'duplicate-tool-id',
        message: 'agent: tools 0 and 2 share the id "preco"; the model sees both and the first one\'s handler runs.',
        path: ['tools', 2],
      },
    ]);
  });

  it('warns about a required argument missing from properties', () => {
    expect(validateTool({ id: 'x', parameters: { type: 'object', properties: {}, required: ['cidade'] } }).warnings).toEqual([
      { code: 'required-not-in-properties', message: 'tool "x": required names "cidade", which is not in properties.', path: ['parameters', 'required', 0] },
    ]);
  });

  it('accepts a tool without parameters', () => {
    expect(validateTool({ id: 'ping', handler: () => undefined })).toEqual({ warnings: [] });
  });
});

describe('validateFields', () => {
  it('accepts every field type with enums of that type', () => {
    expect(
      validateFields({
        cidade: { type: 'string', enum: ['Curitiba'], extract: 'anywhere', label: 'Cidade' },
        preco: { type: 'number', enum: [1.5, 2] },
        hospedes: { type: 'integer', enum: [1, 2, 3] },
        confirma: { type: 'boolean', extract: 'asked' },
      }),
    ).toEqual({ warnings: [] });
  });

  it.each<[string, unknown, string, string, (string | number)[]]>([
    [
      'the slug "message", which the speak reply uses',
      { message: { type: 'string' } },
      'reserved-field',
      '[FlowConfigurationError] field "message": "message" is reserved: the speak reply already has a "message" key. Rename the field.',
      ['message'],
    ],
    [
      'an enum value of the wrong type',
      { hospedes: { type: 'integer', enum: [1, 2.5] } },
      'invalid-type',
      '[FlowConfigurationError] field "hospedes": enum[1] must be a whole number, like the field\'s type, got 2.5. Make every enum value a whole number.',
      ['hospedes', 'enum', 1],
    ],
    [
      'an empty enum',
      { quarto: { type: 'string', enum: [] } },
      'invalid-type',
      '[FlowConfigurationError] field "quarto": enum must be a non-empty array of string values, got an array. List the allowed values, or remove enum.',
      ['quarto', 'enum'],
    ],
    [
      'an unknown extract mode',
      { confirma: { type: 'boolean', extract: 'always' } },
      'invalid-type',
      '[FlowConfigurationError] field "confirma": extract must be "anywhere" or "asked", got "always". Set extract to "anywhere" or "asked", or remove it.',
      ['confirma', 'extract'],
    ],
    [
      'a field that is not an object',
      { cidade: 'string' },
      'invalid-field',
      '[FlowConfigurationError] field "cidade": a field must be an object, got "string". Write { type: "string" } (or "number", "integer", "boolean").',
      ['cidade'],
    ],
    [
      'fields that are not an object',
      [{ type: 'string' }],
      'invalid-type',
      '[FlowConfigurationError] fields: fields must be an object of slug → field, got an array. Write fields as { cidade: { type: "string" } }.',
      [],
    ],
  ])('refuses %s', (_name, input, code, message, path) => {
    const err = thrown(() => validateFields(input));
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
    expect(err.path).toEqual(path);
  });
});

describe('validateFlows and validateIdle', () => {
  const registries = { fields: fields as never, tools: ['preco'] };

  it('validate a stored config: flows under their own path, idle under "idle"', () => {
    expect(thrown(() => validateFlows([flow('a'), { ...flow('b'), tools: ['x'] }], registries)).path).toEqual(['flows', 1, 'tools', 0]);
    expect(thrown(() => validateIdle({ tools: ['x'] }, registries)).path).toEqual(['idle', 'tools', 0]);
    expect(validateIdle({ prompt: 'Olá', colour: 1 }, registries).warnings).toEqual([
      { code: 'unknown-key', message: 'idle: "colour" is not an idle property and is ignored.', path: ['idle', 'colour'] },
    ]);
  });
});
