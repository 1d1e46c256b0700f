// Where in a definition a problem sits, as a key/index path from the document's root
// (`["flows", 0, "steps", 1, "tools", 0]`), so an API can point an editor at the value.

export type ConfigPath = readonly (string | number)[];

/** The RFC 6901 JSON Pointer of a path: `["flows", 0, "steps"]` → `/flows/0/steps`. */
export function toPointer(path: ConfigPath): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
