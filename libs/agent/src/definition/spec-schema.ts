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

/** Any value: an empty enum would be no schema at all for some validators. */
const oneOfNames = (names: readonly string[], what: string): Schema =>
  names.length === 0 ? { not: {}, description: `No ${what} is registered.` } : { type: 'string', enum: [...new Set(names)] };

export function flowSpecSchema(registries: FlowRegistries): Schema {
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
      onEnd: nullable({ type: 'string', enum: ['end'] }),
    },
    definitions: {
      fieldSlug: oneOfNames(Object.keys(registries.fields), 'field'),
      toolId: oneOfNames(registries.tools, 'tool'),
      trigger: {
        type: 'object',
        required: ['message'],
        additionalProperties: false,
        properties: {
          message: {
            type: 'array',
            items: { type: 'string', pattern: PHRASE },
            // A non-empty list of exclusions only can match nothing; [] is the catch-all.
            not: { type: 'array', minItems: 1, items: { type: 'string', pattern: EXCLUSION } },
            description: 'Example phrases; "!phrase" excludes; [] is a catch-all.',
          },
          repeat: nullable({ type: 'string', enum: ['once', 'always'] }),
        },
      },
      step: {
        type: 'object',
        required: ['id', 'kind'],
        additionalProperties: false,
        properties: {
          id: { ...nonBlank('Unique in the flow; "end" is reserved.'), not: { const: 'end' } },
          kind: { type: 'string', enum: ['prompt', 'collect', 'say'] },
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
          say: text('Sent word for word, no model call.'),
          then: text('A step id of this flow, or "end".'),
        },
        allOf: [
          {
            if: { properties: { kind: { const: 'say' } } },
            then: {
              required: ['say'],
              properties: {
                say: { type: 'string' },
                ...Object.fromEntries(['prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks'].map((key) => [key, { type: 'null' }])),
              },
            },
          },
          {
            if: { properties: { kind: { const: 'prompt' } } },
            then: {
              required: ['prompt'],
              properties: {
                prompt: { type: 'string' },
                say: { type: 'null' },
                collect: nullable({ type: 'array', maxItems: 0 }),
                question: { type: 'null' },
              },
            },
          },
          {
            if: { properties: { kind: { const: 'collect' } } },
            then: {
              required: ['collect'],
              properties: { collect: { type: 'array', minItems: 1 }, say: { type: 'null' } },
            },
          },
        ],
      },
    },
  };
}
