// Gemini thinking models sign their function calls (`thoughtSignature`) and Gemini 3 refuses a
// history whose function calls lost their signature. The engine's HistoryItem has no place for
// it, so the provider remembers the signatures it saw, keyed by the call itself, and puts them
// back when the same call returns in the history. A call it never saw (another worker, a
// restart) gets Google's documented placeholder on Gemini 3+, which skips the check.

export const SKIP_SIGNATURE = 'skip_thought_signature_validator';
const MAX_ENTRIES = 2_000;

export class ThoughtSignatures {
  private readonly byCall = new Map<string, string>();

  remember(name: string, args: unknown, signature: string): void {
    const key = callKey(name, args);
    this.byCall.delete(key);
    this.byCall.set(key, signature);
    if (this.byCall.size > MAX_ENTRIES) this.byCall.delete(this.byCall.keys().next().value as string);
  }

  lookup(name: string, args: unknown): string | undefined {
    return this.byCall.get(callKey(name, args));
  }
}

/** Gemini 3 and later require signatures on replayed function calls. */
export function requiresSignatures(model: string): boolean {
  const match = /gemini-(\d+)/i.exec(model);
  return match !== null && Number(match[1]) >= 3;
}

function callKey(name: string, args: unknown): string {
  return `${name}\u0000${stableJson(args ?? {})}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
