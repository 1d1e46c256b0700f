// `{{path}}` templates in scripted replies and arguments. Roots: `message` (the last user
// message), `match` (the rule's regex groups: `match.1`, `match.name`), `known` (the fields the
// engine listed as known), `lastTool` (the last tool result of this speak call, parsed when it
// is JSON) and `tool.<id>` (the last result of that tool).

export type TemplateScope = Record<string, unknown>;

const WHOLE = /^\{\{\s*([\w.$-]+)\s*\}\}$/;
const ANY = /\{\{\s*([\w.$-]+)\s*\}\}/g;

function lookup(scope: TemplateScope, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A string that is one whole template keeps the value's type; anything else interpolates text. */
export function render(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(scope, whole[1]);
    return value.replace(ANY, (_m, path: string) => asText(lookup(scope, path)));
  }
  if (Array.isArray(value)) return value.map((v) => render(v, scope));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = render(v, scope);
    return out;
  }
  return value;
}

export function renderText(text: string, scope: TemplateScope): string {
  return text.replace(ANY, (_m, path: string) => asText(lookup(scope, path)));
}
