// The text and JSON schemas the engine sends to the model. Kept apart from the decisions so
// the wording can change without touching a rule.
import type { FieldDef, FieldsDef } from '../types/fields';
import type { Flow } from '../types/flow';
import { phrasesOf } from './triggers';

/** The line of a speak system prompt that lists the known fields as JSON (ScriptedProvider reads it). */
export const KNOWN_FIELDS_PREFIX = 'Known fields: ';

export const WRAP_UP_SECTION =
  '## Wrap up\nNo more tools can run for this reply. Answer the customer now with what you already have.';

function section(title: string, body: string | undefined): string | undefined {
  return body && body.trim() ? `## ${title}\n${body.trim()}` : undefined;
}

function join(parts: (string | undefined)[]): string {
  return parts.filter((p): p is string => p !== undefined && p !== '').join('\n\n');
}

function describeField(slug: string, field: FieldDef): string {
  const parts = [`- ${slug} (${field.type})`];
  if (field.description) parts.push(`: ${field.description}`);
  if (field.enum) parts.push(`; one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  return parts.join('');
}

function fieldSchema(field: FieldDef): object {
  const schema: Record<string, unknown> = { type: [field.type, 'null'] };
  if (field.description) schema.description = field.description;
  if (field.enum) schema.enum = [...field.enum, null];
  return schema;
}

function fieldsSchema(fields: FieldsDef, slugs: readonly string[]): Record<string, object> {
  const props: Record<string, object> = {};
  for (const slug of slugs) props[slug] = fieldSchema(fields[slug]);
  return props;
}

// ---- understand ---------------------------------------------------------------------------

export interface UnderstandAsk {
  flows: readonly Flow[];
  slugs: readonly string[];
  /** Yes/no questions about the message (branch `when`s), by id. */
  questions?: readonly { id: string; text: string }[];
}

function describeFlow(flow: Flow): string {
  const phrases = phrasesOf(flow);
  const include = phrases.filter((p) => !p.startsWith('!')).map((p) => JSON.stringify(p));
  const exclude = phrases.filter((p) => p.startsWith('!')).map((p) => JSON.stringify(p.slice(1)));
  let line = `- ${flow.id} (${flow.name}${flow.description ? `: ${flow.description}` : ''})`;
  if (include.length) line += `\n  like: ${include.join(', ')}`;
  if (exclude.length) line += `\n  not when: ${exclude.join(', ')}`;
  return line;
}

export function understandSystem(instructions: string | undefined, fields: FieldsDef, ask: UnderstandAsk): string {
  return join([
    instructions,
    'Judge the last customer message. Reply only with JSON that matches the schema.',
    ask.flows.length
      ? section(
          'Flows',
          'Score from 0 to 100 how well the message matches each flow, by its example phrases.\n' +
            ask.flows.map(describeFlow).join('\n'),
        )
      : undefined,
    ask.slugs.length
      ? section(
          'Fields',
          'Report each value the customer stated in the message; null when the message does not state it.\n' +
            ask.slugs.map((s) => describeField(s, fields[s])).join('\n'),
        )
      : undefined,
    ask.questions?.length
      ? section(
          'Questions',
          'Answer each yes/no question about the message with true or false.\n' +
            ask.questions.map((q) => `- ${JSON.stringify(q.id)}: ${q.text}`).join('\n'),
        )
      : undefined,
  ]);
}

export function understandSchema(fields: FieldsDef, ask: UnderstandAsk): { name: string; schema: object } {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  if (ask.flows.length) {
    const scores: Record<string, object> = {};
    for (const flow of ask.flows) scores[flow.id] = { type: 'integer', minimum: 0, maximum: 100 };
    properties.flows = { type: 'object', properties: scores, required: Object.keys(scores), additionalProperties: false };
    required.push('flows');
  }
  if (ask.slugs.length) {
    properties.fields = {
      type: 'object',
      properties: fieldsSchema(fields, ask.slugs),
      required: [...ask.slugs],
      additionalProperties: false,
    };
    required.push('fields');
  }
  if (ask.questions?.length) {
    const answers: Record<string, object> = {};
    for (const q of ask.questions) answers[q.id] = { type: 'boolean', description: q.text };
    properties.branches = { type: 'object', properties: answers, required: Object.keys(answers), additionalProperties: false };
    required.push('branches');
  }
  return { name: 'understand', schema: { type: 'object', properties, required, additionalProperties: false } };
}

// ---- speak --------------------------------------------------------------------------------

export interface SpeakBrief {
  agentInstructions: string | undefined;
  /** Flow or idle instructions. */
  instructions: string | undefined;
  /** The step's prompt or the idle prompt. */
  prompt: string | undefined;
  /** Fields to ask for, with how to ask. */
  asks: { slug: string; how: string }[];
  known: Record<string, unknown>;
}

/** One wording for every step, whichever fields its schema lists, so the system prompt stays one prefix. */
const REPLY_SECTION = section(
  'Reply',
  'Reply with JSON that matches the schema: "message" is the text the customer reads; report each other field of the schema the customer gave, else null.',
);

/**
 * A speak call's prompt in two parts, for prompt caching: `system`, the same on every speak call
 * of the agent (its instructions, how to reply), sent first beside the tools and the reply
 * schema; and `context`, what this step and turn add (flow or idle instructions, the step's
 * prompt, the fields still to ask, the known values), sent after the history. So a cached prefix
 * survives a change of step, and the history before the new message is part of it.
 */
export function speakPrompt(fields: FieldsDef, brief: SpeakBrief): { system: string; context: string } {
  const asks = brief.asks.map((a) => `${describeField(a.slug, fields[a.slug])}\n  ${a.how}`).join('\n');
  return {
    system: join([brief.agentInstructions, REPLY_SECTION]),
    context: join([
      brief.instructions,
      section('Now', brief.prompt),
      asks ? section('Ask for', `The customer has not given these yet. Ask for them.\n${asks}`) : undefined,
      `${KNOWN_FIELDS_PREFIX}${JSON.stringify(brief.known)}`,
    ]),
  };
}

export function speakSchema(fields: FieldsDef, slugs: readonly string[]): { name: string; schema: object } {
  return {
    name: 'reply',
    schema: {
      type: 'object',
      properties: { message: { type: 'string' }, ...fieldsSchema(fields, slugs) },
      required: ['message', ...slugs],
      additionalProperties: false,
    },
  };
}

/** Reads the known-fields line back from a speak call's context (or system prompt); `{}` when absent. */
export function readKnownFields(text: string): Record<string, unknown> {
  const line = text.split('\n').find((l) => l.startsWith(KNOWN_FIELDS_PREFIX));
  if (!line) return {};
  try {
    const parsed: unknown = JSON.parse(line.slice(KNOWN_FIELDS_PREFIX.length));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The structured part of a reply: `structured` when it is an object, else the text parsed as a JSON object. */
export function structuredOf(reply: { text: string | null; structured?: unknown }): Record<string, unknown> | undefined {
  if (isPlainObject(reply.structured)) return reply.structured;
  if (typeof reply.text !== 'string') return undefined;
  const text = reply.text.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
