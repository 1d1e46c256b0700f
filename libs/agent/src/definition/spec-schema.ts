// A JSON Schema (draft-07) of valid FlowSpecs, for editors: field slugs and tool ids are
// enums, so an editor can complete them and flag unknown ones. It cannot see across values
// (unique step ids, `then` naming a step): fromSpec with registries is the authority.
import type { FlowRegistries } from '../types/agent';

type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ anyOf: [{ type: 'null' }, schema] });
// validateFlow trims: a value of spaces only is as empty as "".
const NOT_BLANK = '\\S';
const nonBlank = (description?: string): Schema => ({ type: 'string', pattern: NOT_BLANK, ...(description ? { description } : {}) });
const text = (description: string): Schema => nullable(nonBlank(description));
// Matches validateFlow: a phrase needs text besides its optional "!".
const PHRASE = '^\\s*(?:!\\s*\\S|[^\\s!])';
const EXCLUSION = '^\\s*!';
// Matches parseDuration: a whole number and a unit.
const DURATION = '^\\s*\\d+(ms|s|m|h|d)\\s*$';
const HHMM = '^([01]\\d|2[0-3]):[0-5]\\d$';
const TALK_KEYS = ['prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks', 'branches'];
const KEYED = ['say', 'do', 'if', 'wait'];
const OPTION_OWNERS: Record<string, string[]> = { with: ['do'], onFail: ['do'], else: ['if', 'wait'], businessHours: ['wait'] };

/** The JSON Schema a `with` must satisfy: the action's params, closed unless they say otherwise. */
function withSchema(params: Schema | undefined): Schema {
  if (!params) return { type: 'object', maxProperties: 0 };
  return { additionalProperties: false, ...params, type: 'object' };
}

/** `then` of a step of this kind: the keys other kinds own must be null or absent. */
function kindRule(kind: string, own: string[], required: string[], extra: Schema = {}): Schema {
  const nulls: Record<string, Schema> = {};
  for (const key of [...TALK_KEYS, ...KEYED, ...Object.keys(OPTION_OWNERS)]) if (!own.includes(key)) nulls[key] = { type: 'null' };
  return { if: { properties: { kind: { const: kind } } }, then: { required, properties: { ...nulls, ...extra } } };
}

/** Any value: an empty enum would be no schema at all for some validators. */
const oneOfNames = (names: readonly string[], what: string): Schema =>
  names.length === 0 ? { not: {}, description: `No ${what} is registered.` } : { type: 'string', enum: [...new Set(names)] };

export function flowSpecSchema(registries: FlowRegistries): Schema {
  const duration = { type: 'string', pattern: DURATION, description: 'A whole number and a unit: "30s", "5m", "24h", "3d".' };
  const phrases = (catchAll: boolean) => ({
    type: 'array',
    items: { type: 'string', pattern: PHRASE },
    ...(catchAll ? {} : { minItems: 1 }),
    not: { type: 'array', minItems: 1, items: { type: 'string', pattern: EXCLUSION } },
  });
  const triggerOf = (key: string, schema: Schema): Schema => ({ required: [key], properties: { [key]: schema } });
  const toolList = { type: 'array', items: { $ref: '#/definitions/toolId' }, description: 'Allow-list of tool ids; [] offers no tools.' };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'FlowSpec',
    type: 'object',
    required: ['id', 'name', 'steps'],
    additionalProperties: false,
    properties: {
      id: nonBlank('Unique among the agent’s flows.'),
      name: nonBlank('For people.'),
      description: nullable({ type: 'string' }),
      on: nullable({ type: 'array', items: { $ref: '#/definitions/trigger' } }),
      steps: { type: 'array', minItems: 1, items: { $ref: '#/definitions/step' } },
      tools: nullable(toolList),
      instructions: nullable({ type: 'string' }),
      onEnd: nullable({ type: 'string', enum: ['end', 'stay', 'reset'] }),
    },
    definitions: {
      fieldSlug: oneOfNames(Object.keys(registries.fields), 'field'),
      toolId: oneOfNames(registries.tools, 'tool'),
      actionName: oneOfNames(Object.keys(registries.actions ?? {}), 'action'),
      conditionName: oneOfNames(registries.conditions ?? [], 'condition'),
      flowId: registries.flows ? oneOfNames(registries.flows, 'flow') : nonBlank('A flow id of the agent.'),
      duration,
      target: {
        description: 'A step id of this flow, "end", or { flow } to chain into another flow.',
        anyOf: [nonBlank(), { type: 'object', required: ['flow'], additionalProperties: false, properties: { flow: { $ref: '#/definitions/flowId' } } }],
      },
      predicate: {
        description: 'A registered condition name, or { equals?, known?, condition? }: every key must hold.',
        anyOf: [
          { $ref: '#/definitions/conditionName' },
          {
            type: 'object',
            minProperties: 1,
            additionalProperties: false,
            properties: {
              equals: {
                type: 'object',
                minProperties: 1,
                propertyNames: { $ref: '#/definitions/fieldSlug' },
                additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
              },
              known: { type: 'array', minItems: 1, items: { $ref: '#/definitions/fieldSlug' } },
              condition: { anyOf: [{ $ref: '#/definitions/conditionName' }, { type: 'array', minItems: 1, items: { $ref: '#/definitions/conditionName' } }] },
            },
          },
        ],
      },
      businessHours: {
        type: 'object',
        required: ['start', 'end'],
        additionalProperties: false,
        properties: {
          start: { type: 'string', pattern: HHMM },
          end: { type: 'string', pattern: HHMM },
          days: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0, maximum: 6 } },
          timeZone: nonBlank('An IANA time zone; default UTC.'),
        },
      },
      branch: {
        type: 'object',
        required: ['then'],
        additionalProperties: false,
        properties: {
          if: nullable({ $ref: '#/definitions/predicate' }),
          when: text('A yes/no question about the customer’s reply, judged in the understand call.'),
          then: { $ref: '#/definitions/target' },
        },
      },
      trigger: {
        type: 'object',
        additionalProperties: false,
        properties: {
          message: nullable({ ...phrases(true), description: 'Example phrases; "!phrase" excludes; [] is a catch-all.' }),
          mention: nullable({ ...phrases(false), description: 'What a message must mention to start a side run.' }),
          extract: nullable({ type: 'array', items: { $ref: '#/definitions/fieldSlug' } }),
          event: text('An event name reported with turn({ event, key }).'),
          after: nullable({ $ref: '#/definitions/duration' }),
          silence: nullable({ $ref: '#/definitions/duration' }),
          repeat: nullable({
            anyOf: [
              { type: 'string', enum: ['once', 'always'] },
              { type: 'object', required: ['cooldown'], additionalProperties: false, properties: { cooldown: { $ref: '#/definitions/duration' } } },
            ],
          }),
        },
        // Exactly one kind: message, mention, event or silence.
        oneOf: [
          triggerOf('message', { type: 'array' }),
          triggerOf('mention', { type: 'array' }),
          triggerOf('event', { type: 'string' }),
          triggerOf('silence', { type: 'string' }),
        ],
        allOf: [
          { if: { not: triggerOf('mention', { type: 'array' }) }, then: { properties: { extract: { type: 'null' } } } },
          { if: { not: triggerOf('event', { type: 'string' }) }, then: { properties: { after: { type: 'null' } } } },
        ],
      },
      step: {
        type: 'object',
        required: ['id', 'kind'],
        additionalProperties: false,
        properties: {
          id: { ...nonBlank('Unique in the flow; "end" is reserved.'), not: { const: 'end' } },
          kind: { type: 'string', enum: ['prompt', 'collect', 'say', 'do', 'if', 'wait'] },
          prompt: text('What the speak call should do at this step.'),
          collect: nullable({ type: 'array', items: { $ref: '#/definitions/fieldSlug' } }),
          tools: nullable(toolList),
          ask: nullable({
            type: 'object',
            propertyNames: { $ref: '#/definitions/fieldSlug' },
            additionalProperties: nonBlank(),
          }),
          question: text('A fixed first ask, sent word for word.'),
          maxAsks: nullable({ type: 'integer', minimum: 1 }),
          branches: nullable({ type: 'array', minItems: 1, items: { $ref: '#/definitions/branch' } }),
          say: text('Sent word for word, no model call.'),
          do: nullable({ $ref: '#/definitions/actionName' }),
          with: nullable({ type: 'object', description: 'The action’s parameters; checked against its params when the agent is built.' }),
          onFail: nullable({ $ref: '#/definitions/target' }),
          if: nullable({ $ref: '#/definitions/predicate' }),
          else: nullable({ $ref: '#/definitions/target' }),
          wait: nullable({
            anyOf: [
              { $ref: '#/definitions/duration' },
              { type: 'object', required: ['event'], additionalProperties: false, properties: { event: nonBlank(), upTo: { $ref: '#/definitions/duration' } } },
            ],
          }),
          businessHours: nullable({ $ref: '#/definitions/businessHours' }),
          then: nullable({ $ref: '#/definitions/target' }),
        },
        allOf: [
          kindRule('say', [], ['say'], { say: { type: 'string' } }),
          kindRule('prompt', ['prompt', 'collect', 'tools', 'ask', 'maxAsks', 'branches'], ['prompt'], {
            prompt: { type: 'string' },
            collect: nullable({ type: 'array', maxItems: 0 }),
            question: { type: 'null' },
          }),
          kindRule('collect', TALK_KEYS, ['collect'], { collect: { type: 'array', minItems: 1 } }),
          kindRule('do', ['do', 'with', 'onFail'], ['do'], { do: { type: 'string' } }),
          kindRule('if', ['if', 'else'], ['if'], { if: { not: { type: 'null' } } }),
          // Each action's `with` must satisfy its params, as f.agent() checks.
          ...Object.entries(registries.actions ?? {}).map(([name, params]) => ({
            if: { required: ['do'], properties: { do: { const: name } } },
            then: params?.required?.length
              ? { required: ['with'], properties: { with: withSchema(params) } }
              : { properties: { with: nullable(withSchema(params)) } },
          })),
          kindRule('wait', ['wait', 'else', 'businessHours'], ['wait'], { wait: { not: { type: 'null' } } }),
        ],
      },
    },
  };
}
