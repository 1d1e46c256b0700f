// Small helpers shared by the form ⇄ config conversions: inputs hold '' and [] where the JSON
// leaves a key out, and the loaded spec's own empty values are remembered so saving keeps them.

/** A string input's value, or undefined when blank (the key is then left out). */
export const text = (s: string | null | undefined): string | undefined => (s && s.trim() ? s : undefined);

/** A list input's value, or undefined when empty. */
export const list = <T>(l: T[] | null | undefined): T[] | undefined => (l && l.length ? l : undefined);

/** The object without its undefined values. */
export const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Keys the editor does not know (newer engine options), kept so saving never drops them. */
export function extraOf(obj: object, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([k, v]) => !known.includes(k) && v !== null && v !== undefined));
}

const isEmptyValue = (v: unknown) =>
  v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/**
 * The `keys` the spec sets to an empty value ('' , [], {}). The form cannot tell them from an
 * absent key, so they are remembered and written back by `withEmpties`.
 */
export function emptiesOf(obj: object, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([k, v]) => keys.includes(k) && isEmptyValue(v)));
}

/** `spec` plus the remembered empty values of the keys it left out, when `owned` allows them. */
export function withEmpties<T extends object>(spec: T, empties: Record<string, unknown> | undefined, owned?: readonly string[]): T {
  const out = { ...spec } as Record<string, unknown>;
  for (const [k, v] of Object.entries(empties ?? {})) {
    if (out[k] === undefined && (!owned || owned.includes(k))) out[k] = v;
  }
  return out as T;
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
