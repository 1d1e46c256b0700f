// A `tools` allow-list (tool.md): an array of registered tool ids; `[]` means no tools.
import { describeValue, listNames, quote, type Scope } from './json-checks';

export function checkToolList(list: unknown, scope: Scope, key: string, registered: readonly string[]): string[] {
  if (!Array.isArray(list)) scope.fail('invalid-type', `${key} must be an array of tool ids, got ${describeValue(list)}`, `Set ${key} to an array of tool ids ([] offers none), or remove it`);
  const seen = new Set<string>();
  list.forEach((id, index) => {
    if (typeof id !== 'string') scope.at(index).fail('invalid-type', `${key}[${index}] must be a tool id, got ${describeValue(id)}`, `Write each entry of ${key} as a tool id`);
    if (!registered.includes(id)) {
      scope.at(index).fail(
        'unknown-tool',
        `${key} names ${quote(id)}, which is not a registered tool`,
        registered.length === 0
          ? `Register a tool with id ${quote(id)} (the agent has none), or remove it from ${key}`
          : `Register a tool with id ${quote(id)}, or use one of ${listNames([...new Set(registered)])}`,
      );
    }
    if (seen.has(id)) scope.at(index).warn('duplicate-tool', `${key} lists ${quote(id)} twice`);
    seen.add(id);
  });
  return list as string[];
}
