import { statSync } from 'node:fs';
import { extname, posix, resolve, sep } from 'node:path';

export type ConsoleTarget =
  | { kind: 'file'; path: string; immutable: boolean }
  | { kind: 'index' }
  | { kind: 'missing' };

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Maps a path under /admin/ to what to send. Real files are sent as they are; a path without
 * an extension is a client route of the single-page app and gets index.html; anything else
 * (a missing asset) is a 404, so a stale bundle fails loudly instead of loading HTML as JS.
 */
export function resolveConsoleTarget(root: string, requestPath: string): ConsoleTarget {
  // posix.normalize on a rooted path removes every `..` that would climb above the root.
  const relative = posix.normalize('/' + requestPath).slice(1);
  if (relative === '' || relative === 'index.html') return { kind: 'index' };
  const absolute = resolve(root, relative);
  if (!absolute.startsWith(root + sep)) return { kind: 'missing' };
  if (isFile(absolute)) return { kind: 'file', path: relative, immutable: relative.startsWith('assets/') };
  return extname(relative) === '' ? { kind: 'index' } : { kind: 'missing' };
}
