// What the model reads back from a tool (tool.md, "ToolResult fields" and the gates table).

/** `{"ok":true}`: what the model reads when a handler returns no value. */
export const OK_VALUE = '{"ok":true}';

/** A string as is, `undefined` as `{"ok":true}`, anything else through `JSON.stringify`. */
export function serializeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return OK_VALUE;
  const text = JSON.stringify(value);
  // JSON.stringify gives undefined for functions and symbols: nothing the model could read.
  return text === undefined ? OK_VALUE : text;
}

/** Cuts `text` to `max` chars and says so, when `max` is set and the text is longer. */
export function truncate(text: string, max: number | undefined): string {
  if (max === undefined || !Number.isFinite(max) || max < 0 || text.length <= max) return text;
  const shown = Math.floor(max);
  return `${text.slice(0, shown)}[truncated: ${text.length} chars total, showing the first ${shown}]`;
}

export function unavailableError(name: string): string {
  return JSON.stringify({ error: `Tool "${name}" is not available.` });
}

export function validationError(error: string | undefined, correctedInput: unknown): string {
  const body: { error: string; correctedInput?: unknown } = { error: `Validation failed: ${error || 'invalid input'}` };
  if (correctedInput !== undefined) body.correctedInput = correctedInput;
  return JSON.stringify(body);
}

export function permissionError(reason: string | undefined): string {
  return JSON.stringify({ error: `Permission denied: ${reason || 'not allowed'}` });
}

export function thrownError(err: unknown): string {
  return JSON.stringify({ error: errorMessage(err) });
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
