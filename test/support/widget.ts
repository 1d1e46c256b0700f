import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PrismaClient } from '@switchboard/db';
import { newWidgetPublicId } from '../../apps/api/src/widget/widget-public-id';
import { widgetSettingsSchema, type WidgetSettings } from '../../apps/api/src/widget/widget-settings';

export const WIDGET_DIR = join(__dirname, '..', '..', 'apps', 'widget');
export const WIDGET_DIST = join(WIDGET_DIR, 'dist');
const LOCK = '/tmp/switchboard-widget-build.lock';

export interface WidgetManifest {
  loader: string;
  panel: string;
  locales: string[];
  gzipBytes: { loader: number; panel: number };
}

function newest(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs) : stat.mtimeMs;
}

/**
 * Builds apps/widget into dist when the build is missing or older than its sources (about 3 s),
 * under a lock so parallel jest workers build once. The API serves dist at request time.
 */
export function ensureWidgetBuilt(): WidgetManifest {
  const manifest = join(WIDGET_DIST, 'manifest.json');
  const stale = () => !existsSync(manifest) || ['src', 'build.mjs', 'package.json'].some((p) => newest(join(WIDGET_DIR, p)) > statSync(manifest).mtimeMs);
  if (stale()) {
    const root = join(WIDGET_DIR, '..', '..');
    // flock serialises builds; whoever waited rebuilds only if still stale (the build is quick and idempotent).
    execFileSync('flock', [LOCK, 'npm', 'run', 'build', '--silent', '-w', 'apps/widget'], { cwd: root, stdio: 'pipe', timeout: 120_000 });
  }
  return JSON.parse(readFileSync(manifest, 'utf8')) as WidgetManifest;
}

/** A "Web widget" channel written straight to the database (the console's path has its own tests). */
export async function createWidgetChannel(
  db: PrismaClient,
  tenantId: string,
  agentId: string,
  settings: Partial<WidgetSettings> & Pick<WidgetSettings, 'allowedOrigins'>,
): Promise<{ id: string; publicId: string }> {
  const publicId = newWidgetPublicId();
  const row = await db.channel.create({
    data: { tenantId, agentId, name: `Widget ${publicId}`, kind: 'widget', publicId, settings: widgetSettingsSchema.parse(settings) },
    select: { id: true, publicId: true },
  });
  return { id: row.id, publicId: row.publicId! };
}
