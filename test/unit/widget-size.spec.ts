import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWidgetBuilt, WIDGET_DIST } from '../support/widget';

// The widget's weight budgets (issue 19), measured on the built files: what the snippet loads on
// every page view, and what the first open adds.

const LOADER_BUDGET = 5 * 1024;
const PANEL_BUDGET = 25 * 1024;

jest.setTimeout(120_000);

describe('the built widget', () => {
  const manifest = ensureWidgetBuilt();
  const gzipped = (file: string) => gzipSync(readFileSync(join(WIDGET_DIST, file)), { level: 9 }).length;

  it(`keeps the loader within ${LOADER_BUDGET} bytes and the panel within ${PANEL_BUDGET} bytes gzipped`, () => {
    const sizes = { loader: gzipped(manifest.loader), panel: gzipped(manifest.panel) };
    process.stdout.write(`[widget] gzipped: loader ${sizes.loader} B (budget ${LOADER_BUDGET}), panel ${sizes.panel} B (budget ${PANEL_BUDGET})\n`);
    expect(sizes.loader).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(sizes.panel).toBeLessThanOrEqual(PANEL_BUDGET);
  });

  it('names the panel by its content, ships precompressed copies, and lists its languages', () => {
    const panel = readFileSync(join(WIDGET_DIST, manifest.panel));
    expect(manifest.panel).toMatch(/^assets\/panel\.[A-Za-z0-9_-]{12}\.js$/);
    expect(readFileSync(join(WIDGET_DIST, manifest.loader), 'utf8')).toContain(`widget/${manifest.panel}`);
    expect(gzipSync(panel).length).toBeGreaterThan(0);
    for (const file of [manifest.loader, manifest.panel]) {
      expect(readFileSync(join(WIDGET_DIST, `${file}.gz`)).length).toBeLessThan(readFileSync(join(WIDGET_DIST, file)).length);
      expect(readFileSync(join(WIDGET_DIST, `${file}.br`)).length).toBeLessThan(readFileSync(join(WIDGET_DIST, file)).length);
    }
    expect(manifest.locales).toEqual(['en', 'pt-BR']);
  });

  it('has no eval or new Function (a strict CSP forbids them), and one innerHTML each: its own icon', () => {
    for (const file of [manifest.loader, manifest.panel]) {
      const code = readFileSync(join(WIDGET_DIST, file), 'utf8');
      expect(code).not.toMatch(/\beval\(|new Function\(/);
      // The launcher's and the send button's SVG constants; every text goes through text nodes.
      expect(code.match(/\.innerHTML\s*=/g)).toHaveLength(1);
    }
  });
});
