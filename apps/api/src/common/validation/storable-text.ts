/**
 * Text Postgres cannot store: its `text` type refuses U+0000 (the query fails), and a lone
 * UTF-16 surrogate has no UTF-8 form, so the driver would silently write U+FFFD instead — two
 * different session keys or message ids would then become the same row. Such a string is
 * refused at the door (400 `invalid-characters`), never stored changed.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string is refused, for the error message. */
export function unstorableReason(text: string): string {
  return text.includes('\u0000') ? 'contains a NUL character (U+0000)' : 'contains a lone UTF-16 surrogate (not valid Unicode)';
}

/**
 * The first place in a parsed value (keys included) holding text Postgres cannot store, as a
 * dotted path from `path`, or undefined. Objects nested deeper than `maxDepth` are not walked:
 * the body parser and the schemas bound the depth long before that.
 */
export function findUnstorable(value: unknown, path = '', maxDepth = 64): { path: string; reason: string } | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : { path, reason: unstorableReason(value) };
  if (maxDepth <= 0 || typeof value !== 'object' || value === null) return undefined;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const childPath = path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && !isStorableText(key)) return { path: childPath, reason: `has a key that ${unstorableReason(key)}` };
    const found = findUnstorable(child, childPath, maxDepth - 1);
    if (found) return found;
  }
  return undefined;
}
