import { agentConfigSchema } from '@switchboard/agent-config';

/** One changed value between two configs; `before`/`after` is absent when the value was added/removed. */
export interface ConfigChange {
  /** JSON Pointer of the value, e.g. `/flows/0/steps/1/prompt`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The leaf-level differences between two JSON values, in document order: objects compared key
 * by key, arrays index by index (a moved step shows as changes at both indexes).
 */
export function diffConfigs(before: unknown, after: unknown, path = ''): ConfigChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => {
      const p = `${path}/${escape(k)}`;
      if (!(k in after)) return [{ path: p, before: before[k] }];
      if (!(k in before)) return [{ path: p, after: after[k] }];
      return diffConfigs(before[k], after[k], p);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => {
      const p = `${path}/${i}`;
      if (i >= after.length) return [{ path: p, before: before[i] }];
      if (i >= before.length) return [{ path: p, after: after[i] }];
      return diffConfigs(before[i], after[i], p);
    }).flat();
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || '/', before, after }];
}

/**
 * A config as a turn sees it, for comparing a draft with a version: the schema's defaults filled
 * in and `name` set to the agent's name when absent (the worker falls back to it), so keys the
 * editor leaves out — the console's form does not carry `name` — are not reported as removed.
 */
export function normalizedConfig(config: unknown, agentName: string): unknown {
  const parsed = agentConfigSchema.safeParse(config);
  const value = parsed.success ? parsed.data : config;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const named = { ...(value as Record<string, unknown>) };
  named.name ??= agentName;
  return JSON.parse(JSON.stringify(named)) as unknown;
}
