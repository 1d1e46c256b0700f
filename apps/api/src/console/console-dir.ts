import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Where the built console lives: CONSOLE_DIST_DIR when set, else apps/admin/dist of the
 * repository this file runs from (found by walking up, so it works from src under
 * swc-node and from dist/apps/api/... after `nest build`).
 */
export function resolveConsoleDir(env: NodeJS.ProcessEnv = process.env, from: string = __dirname): string {
  if (env.CONSOLE_DIST_DIR) return resolve(env.CONSOLE_DIST_DIR);
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'admin', 'package.json'))) return join(dir, 'apps', 'admin', 'dist');
    if (dirname(dir) === dir) return resolve(process.cwd(), 'apps', 'admin', 'dist');
  }
}
