import type { AgentConfig, FieldConfig, FieldType, FieldValue, ProviderKind } from './agent-config.js';
import { flowFromSpec, type FlowForm } from '../flows/flow-form.js';
import { flowFormPath } from '../flows/flow-paths.js';
import { flowToSpec, type FieldTypes } from '../flows/flow-spec.js';
import { defined, DraftInputError, list, text } from '../flows/form-values.js';

export type { AskForm, BranchForm, FlowForm, PredicateForm, StepForm, TriggerForm } from '../flows/flow-form.js';
export { emptyStep } from '../flows/flow-form.js';
export { DraftInputError } from '../flows/form-values.js';

// The agent form edits a `draft` shaped for inputs (arrays of rows, strings for JSON) and turns
// it back into an AgentConfig on save. Keys the editor does not know (newer engine options) ride
// along in `extra` so saving never drops them.

export interface FieldForm extends Omit<FieldConfig, 'enum'> {
  slug: string;
  enum: string[];
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
  const types: FieldTypes = Object.fromEntries((draft.fields ?? []).map((f) => [f.slug.trim(), f.type ?? 'string']));
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
    flows: (draft.flows ?? []).map((f, i) => flowToSpec(f, i, types)),
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

/**
 * The form input a config JSON path (from the API's 422) points at, when the form has one:
 * `['flows', 0, 'steps', 1, 'tools']` → `draft.flows.0.steps.1.tools`.
 */
export function formPathOf(path: (string | number)[], draft: AgentDraft): string | undefined {
  const [head, a, b] = path;
  if (head === 'fields' && typeof a === 'string') {
    const i = draft.fields.findIndex((f) => f.slug === a);
    if (i < 0) return undefined;
    return b === undefined ? `draft.fields.${i}.slug` : `draft.fields.${i}.${b}`;
  }
  if (head === 'tools') return 'draft.tools';
  if (head === 'idle') return a === undefined ? 'draft.idle.mode' : `draft.idle.${a}`;
  if (head === 'provider' && typeof a === 'string') return a === 'scripted' ? 'draft.provider.scriptedJson' : `draft.provider.${a}`;
  if (head === 'flows' && typeof a === 'number') return flowFormPath(a, path.slice(2), draft.flows[a]);
  if (typeof head === 'string' && ['instructions', 'maxToolLoops', 'fallbackMessage'].includes(head)) return `draft.${head}`;
  if (head === 'doubleTexting') return `draft.doubleTexting.${a ?? 'policy'}`;
  return undefined;
}
