// Tool-call arguments arrive from the wire as a JSON string (OpenAI) or an object (Gemini).
// The contract passes an object when it is one and the raw string otherwise, so the engine can
// show the model its own parse error (engine.md §4).

export function toolArguments(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    // Some servers send "" for a call without arguments.
    if (raw.trim() === '') return {};
    try {
      const value: unknown = JSON.parse(raw);
      return isPlainObject(value) ? value : raw;
    } catch {
      return raw;
    }
  }
  return isPlainObject(raw) ? raw : JSON.stringify(raw);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
