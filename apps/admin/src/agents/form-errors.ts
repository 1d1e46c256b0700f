// Which tab of the agent form holds each input error, so a tab can show its count and the
// editor can open the first one. Pure, so the mapping is tested without a browser.
/** A JSON path into the config (publish-error.tsx's ConfigPath; repeated so this file stays plain TS for the unit tests). */
type ConfigPath = (string | number)[];

export const TABS = ['General', 'Fields', 'Flows', 'Tools & behaviour', 'Versions', 'Playground', 'Tests'] as const;

/** Which tab holds the input a config path names. */
export function tabOf(path: ConfigPath): number {
  switch (path[0]) {
    case 'fields':
      return 1;
    case 'flows':
      return 2;
    case 'tools':
    case 'idle':
    case 'maxToolLoops':
    case 'fallbackMessage':
    case 'doubleTexting':
      return 3;
    default:
      return 0;
  }
}

/** The tab of a form input: `draft.flows.0.steps.1.prompt` → Flows; `name` → General. */
export const tabOfInput = (name: string): number => (name.startsWith('draft.') ? tabOf(name.split('.').slice(1)) : 0);

/**
 * The names of the inputs holding an error, from react-hook-form's nested `errors` object (a
 * leaf has a string `type`; `ref` is the DOM element and is not walked).
 */
export function errorInputs(errors: unknown, prefix = ''): { name: string; type: string }[] {
  if (!errors || typeof errors !== 'object') return [];
  const e = errors as Record<string, unknown>;
  if (typeof e.type === 'string') return [{ name: prefix, type: e.type }];
  return Object.entries(e).flatMap(([key, value]) => (key === 'ref' || key === 'root' ? [] : errorInputs(value, prefix ? `${prefix}.${key}` : key)));
}

/**
 * How many errors each tab holds: the inputs' errors, plus the last publish refusal when it is
 * not already on an input (PublishButton sets it on the input as a `server` error when the
 * form has one; a refusal of a whole flow has none).
 */
export function errorCountsByTab(inputs: readonly { name: string; type: string }[], publishPath?: ConfigPath | null): number[] {
  const counts = TABS.map(() => 0);
  for (const { name } of inputs) counts[tabOfInput(name)]++;
  if (publishPath && !inputs.some((i) => i.type === 'server')) counts[tabOf(publishPath)]++;
  return counts;
}
