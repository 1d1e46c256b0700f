// Languages are the JSON files in ./locales: adding `xx.json` (with the keys of en.json) adds a
// language to the loader and the panel at the next build. `auto` (or a language without a file)
// follows the visitor's browser, then English.

export type Strings<T> = Record<string, T>;

/** The locale name whose file answers `wanted` ('auto' → the browser's languages), else 'en'. */
export function pickLocale(available: string[], wanted: string | undefined, browser: readonly string[]): string {
  const tries = wanted && wanted !== 'auto' ? [wanted, ...browser] : [...browser];
  for (const tag of tries) {
    const exact = available.find((a) => a.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = available.find((a) => a.split('-')[0].toLowerCase() === tag.split('-')[0].toLowerCase());
    if (base) return base;
  }
  return 'en';
}

/** Locale files by name from an import.meta.glob of ./locales/*.json. */
export function byLocale<T>(files: Record<string, T>): Strings<T> {
  const out: Strings<T> = {};
  for (const [path, value] of Object.entries(files)) out[path.replace(/^.*\/|\.json$/g, '')] = value;
  return out;
}

/** `{n}` placeholders filled in. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}
