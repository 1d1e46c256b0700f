import type { AgentConfig, FieldConfig, FieldType, FieldValue, FlowSpec, ProviderKind, StepKind, StepSpec, TriggerSpec } from './agent-config';

// The agent form edits a `draft` shaped for inputs (arrays of rows, strings for JSON) and turns
// it back into an AgentConfig on save. Keys the editor does not know (newer engine options) ride
// along in `extra` so saving never drops them.

export interface FieldForm extends Omit<FieldConfig, 'enum'> {
  slug: string;
  enum: string[];
}

export interface AskForm {
  slug: string;
  text: string;
}

export interface StepForm {
  id: string;
  kind: StepKind;
  prompt: string;
  collect: string[];
  tools: string[];
  askList: AskForm[];
  question: string;
  maxAsks: number | null;
  say: string;
  /** '' = the next step. */
  then: string;
  extra: Record<string, unknown>;
}

export interface TriggerForm {
  message: string[];
  repeat: 'once' | 'always';
  extra: Record<string, unknown>;
}

export interface FlowForm {
  id: string;
  name: string;
  description: string;
  instructions: string;
  on: TriggerForm[];
  /** Whether the flow narrows the agent's tools (else every allowed tool is offered). */
  tools: string[];
  steps: StepForm[];
  extra: Record<string, unknown>;
}

export type IdleMode = 'default' | 'speaker' | 'silent';

export interface AgentDraft {
  instructions: string;
  provider: { kind: ProviderKind; model: string; baseURL: string; credentialId: string; scriptedJson: string };
  fields: FieldForm[];
  flows: FlowForm[];
  tools: string[];
  idle: { mode: IdleMode; prompt: string; tools: string[]; instructions: string };
  maxToolLoops: number | null;
  fallbackMessage: string;
  doubleTexting: { policy: 'sequential' | 'merge'; mergeWindowMs: number | null };
}

const STEP_KEYS = ['id', 'kind', 'prompt', 'collect', 'tools', 'ask', 'question', 'maxAsks', 'say', 'then'];
const FLOW_KEYS = ['id', 'name', 'description', 'on', 'steps', 'tools', 'instructions'];
const TRIGGER_KEYS = ['message', 'repeat'];

function extraOf(obj: Record<string, unknown>, known: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([k, v]) => !known.includes(k) && v !== null && v !== undefined));
}

export function emptyStep(kind: StepKind = 'prompt', id = ''): StepForm {
  return { id, kind, prompt: '', collect: [], tools: [], askList: [], question: '', maxAsks: null, say: '', then: '', extra: {} };
}

export function emptyDraft(): AgentDraft {
  return {
    instructions: '',
    provider: { kind: 'scripted', model: 'scripted', baseURL: '', credentialId: '', scriptedJson: '' },
    fields: [],
    flows: [],
    tools: [],
    idle: { mode: 'default', prompt: '', tools: [], instructions: '' },
    maxToolLoops: null,
    fallbackMessage: '',
    doubleTexting: { policy: 'sequential', mergeWindowMs: null },
  };
}

export function draftFromConfig(config: Partial<AgentConfig> | null | undefined): AgentDraft {
  const base = emptyDraft();
  if (!config) return base;
  const idle = config.idle;
  return {
    instructions: config.instructions ?? '',
    provider: {
      kind: config.provider?.kind ?? 'scripted',
      model: config.provider?.model ?? '',
      baseURL: config.provider?.baseURL ?? '',
      credentialId: config.provider?.credentialId ?? '',
      scriptedJson: config.provider?.scripted === undefined ? '' : JSON.stringify(config.provider.scripted, null, 2),
    },
    fields: Object.entries(config.fields ?? {}).map(([slug, f]) => ({ ...f, slug, enum: (f.enum ?? []).map(String) })),
    flows: (config.flows ?? []).map(flowFromSpec),
    tools: config.tools ?? [],
    idle:
      idle === 'silent'
        ? { ...base.idle, mode: 'silent' }
        : idle
          ? { mode: 'speaker', prompt: idle.prompt ?? '', tools: idle.tools ?? [], instructions: idle.instructions ?? '' }
          : base.idle,
    maxToolLoops: config.maxToolLoops ?? null,
    fallbackMessage: config.fallbackMessage ?? '',
    doubleTexting: { policy: config.doubleTexting?.policy ?? 'sequential', mergeWindowMs: config.doubleTexting?.mergeWindowMs ?? null },
  };
}

function flowFromSpec(spec: FlowSpec): FlowForm {
  return {
    id: spec.id ?? '',
    name: spec.name ?? '',
    description: spec.description ?? '',
    instructions: spec.instructions ?? '',
    on: (spec.on ?? []).map((t: TriggerSpec) => ({ message: t.message ?? [], repeat: t.repeat ?? 'once', extra: extraOf(t, TRIGGER_KEYS) })),
    tools: spec.tools ?? [],
    steps: (spec.steps ?? []).map(stepFromSpec),
    extra: extraOf(spec, FLOW_KEYS),
  };
}

function stepFromSpec(s: StepSpec): StepForm {
  return {
    id: s.id ?? '',
    kind: s.kind ?? 'prompt',
    prompt: s.prompt ?? '',
    collect: s.collect ?? [],
    tools: s.tools ?? [],
    askList: Object.entries(s.ask ?? {}).map(([slug, text]) => ({ slug, text })),
    question: s.question ?? '',
    maxAsks: s.maxAsks ?? null,
    say: s.say ?? '',
    then: s.then ?? '',
    extra: extraOf(s, STEP_KEYS),
  };
}

/** Thrown for input the form can tell is wrong before the API sees it (bad JSON). */
export class DraftInputError extends Error {
  constructor(
    message: string,
    readonly formPath: string,
  ) {
    super(message);
  }
}

const text = (s: string | null | undefined) => (s && s.trim() ? s : undefined);
const list = <T,>(l: T[] | null | undefined) => (l && l.length ? l : undefined);
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function coerce(value: string, type: FieldType): FieldValue {
  if (type === 'number' || type === 'integer') {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

export function configFromDraft(draft: AgentDraft): AgentConfig {
  const fields: Record<string, FieldConfig> = {};
  for (const f of draft.fields ?? []) {
    fields[f.slug.trim()] = defined({
      type: f.type ?? 'string',
      enum: list((f.enum ?? []).map((v) => coerce(v, f.type ?? 'string'))),
      description: text(f.description),
      label: text(f.label),
      ask: text(f.ask),
      extract: f.extract || undefined,
    });
  }
  let scripted: unknown;
  if (draft.provider.kind === 'scripted' && text(draft.provider.scriptedJson)) {
    try {
      scripted = JSON.parse(draft.provider.scriptedJson);
    } catch (err) {
      throw new DraftInputError(`The script is not valid JSON: ${(err as Error).message}`, 'draft.provider.scriptedJson');
    }
  }
  const idle = draft.idle;
  return defined({
    instructions: text(draft.instructions),
    provider: defined({
      kind: draft.provider.kind,
      model: draft.provider.model,
      baseURL: draft.provider.kind === 'openai-compatible' ? text(draft.provider.baseURL) : undefined,
      credentialId: draft.provider.kind === 'scripted' ? undefined : text(draft.provider.credentialId),
      scripted,
    }),
    fields,
    flows: (draft.flows ?? []).map(flowToSpec),
    tools: draft.tools ?? [],
    idle:
      idle.mode === 'silent'
        ? ('silent' as const)
        : idle.mode === 'speaker'
          ? defined({ prompt: text(idle.prompt), tools: list(idle.tools), instructions: text(idle.instructions) })
          : undefined,
    maxToolLoops: draft.maxToolLoops ?? undefined,
    fallbackMessage: text(draft.fallbackMessage),
    doubleTexting: defined({
      policy: draft.doubleTexting.policy,
      mergeWindowMs: draft.doubleTexting.policy === 'merge' ? (draft.doubleTexting.mergeWindowMs ?? undefined) : undefined,
    }),
  });
}

function flowToSpec(f: FlowForm): FlowSpec {
  return defined({
    ...f.extra,
    id: f.id,
    name: f.name || f.id,
    description: text(f.description),
    instructions: text(f.instructions),
    on: (f.on ?? []).map((t) => defined({ ...t.extra, message: t.message ?? [], repeat: t.repeat === 'always' ? ('always' as const) : undefined })),
    tools: list(f.tools),
    steps: (f.steps ?? []).map(stepToSpec),
  });
}

/** Only the keys of the step's kind: a say step with a leftover prompt would do two things. */
function stepToSpec(s: StepForm): StepSpec {
  const then = text(s.then);
  if (s.kind === 'say') return defined({ ...s.extra, id: s.id, kind: s.kind, say: s.say, then });
  const talk = { ...s.extra, id: s.id, kind: s.kind, prompt: text(s.prompt), tools: list(s.tools), then };
  if (s.kind === 'prompt') return defined(talk);
  const ask = Object.fromEntries((s.askList ?? []).filter((a) => a.slug && a.text).map((a) => [a.slug, a.text]));
  return defined({
    ...talk,
    collect: s.collect ?? [],
    ask: Object.keys(ask).length ? ask : undefined,
    question: text(s.question),
    maxAsks: s.maxAsks ?? undefined,
  });
}

/**
 * The form input a config JSON path (from the API's 422) points at, when the form has one:
 * `['flows', 0, 'steps', 1, 'tools']` → `draft.flows.0.steps.1.tools`.
 */
export function formPathOf(path: (string | number)[], draft: AgentDraft): string | undefined {
  const [head, a, b, c, d, e] = path;
  if (head === 'fields' && typeof a === 'string') {
    const i = draft.fields.findIndex((f) => f.slug === a);
    if (i < 0) return undefined;
    return b === undefined ? `draft.fields.${i}.slug` : `draft.fields.${i}.${b}`;
  }
  if (head === 'tools') return 'draft.tools';
  if (head === 'idle') return a === undefined ? 'draft.idle.mode' : `draft.idle.${a}`;
  if (head === 'provider' && typeof a === 'string') return a === 'scripted' ? 'draft.provider.scriptedJson' : `draft.provider.${a}`;
  if (head === 'flows' && typeof a === 'number') {
    if (b === undefined) return `draft.flows.${a}.id`;
    if (b === 'steps' && typeof c === 'number') {
      if (d === undefined) return `draft.flows.${a}.steps.${c}.id`;
      if (d === 'ask') {
        const step = draft.flows[a]?.steps[c];
        const i = step?.askList.findIndex((x) => x.slug === e) ?? -1;
        return i >= 0 ? `draft.flows.${a}.steps.${c}.askList.${i}.text` : undefined;
      }
      return `draft.flows.${a}.steps.${c}.${d}`;
    }
    if (b === 'on') return typeof c === 'number' ? `draft.flows.${a}.on.${c}.message` : undefined;
    return `draft.flows.${a}.${b}`;
  }
  if (typeof head === 'string' && ['instructions', 'maxToolLoops', 'fallbackMessage'].includes(head)) return `draft.${head}`;
  if (head === 'doubleTexting') return `draft.doubleTexting.${a ?? 'policy'}`;
  return undefined;
}
