import { existsSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';

/**
 * Where the built widget lives: WIDGET_DIST_DIR when set, else apps/widget/dist of the
 * repository this file runs from (found by walking up, as the console's folder is).
 */
export function resolveWidgetDir(configured: string | undefined, from: string = __dirname): string {
  if (configured) return resolve(configured);
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'widget', 'package.json'))) return join(dir, 'apps', 'widget', 'dist');
    if (dirname(dir) === dir) return resolve(process.cwd(), 'apps', 'widget', 'dist');
  }
}

export type WidgetFile = { path: string; cache: 'immutable' | 'revalidate' } | null;

/** Only these are served under /widget/: the content-hashed bundles and the manifest. */
const HASHED = /^assets\/[a-z-]+\.[A-Za-z0-9_-]{8,}\.js$/;

/** Maps a path under /widget/ to the file to send, or null (never a path outside the build). */
export function resolveWidgetFile(root: string, requestPath: string): WidgetFile {
  const relative = posix.normalize('/' + requestPath).slice(1);
  if (HASHED.test(relative)) return existsSync(join(root, relative)) ? { path: relative, cache: 'immutable' } : null;
  if (relative === 'manifest.json') return existsSync(join(root, relative)) ? { path: relative, cache: 'revalidate' } : null;
  return null;
}
