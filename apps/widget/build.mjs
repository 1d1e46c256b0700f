// Builds the widget into dist/ with Vite (library mode, one IIFE per entry, minified):
//   dist/widget.js                 the loader the snippet names; served short-cached at /widget.js
//   dist/assets/panel.<hash>.js    the panel, loaded on first open; immutable (content hash)
//   dist/manifest.json             file names, locales and gzip sizes (the size test reads them)
// with .gz and .br copies of both made here, so the API sends them without compressing per request.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const work = join(root, 'node_modules', '.widget-build');

async function bundle(entry, define = {}) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    define,
    build: {
      outDir: work,
      emptyOutDir: true,
      target: 'es2020',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: join(root, 'src', entry), formats: ['iife'], name: 'SwitchboardWidget', fileName: () => 'out.js' },
    },
  });
  return readFileSync(join(work, 'out.js'));
}

function write(relative, content) {
  const file = join(dist, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  return gzipSync(content, { level: 9 }).length;
}

const hash = (content) => createHash('sha256').update(content).digest('base64url').slice(0, 12);

rmSync(dist, { recursive: true, force: true });
const panel = await bundle('panel/index.ts');
const panelPath = `assets/panel.${hash(panel)}.js`;
// The loader names the panel relative to widget.js: /widget/assets/panel.<hash>.js.
const loader = await bundle('loader.ts', { __PANEL_PATH__: JSON.stringify(`widget/${panelPath}`) });
const sizes = { loader: write('widget.js', loader), panel: write(panelPath, panel) };
const locales = readdirSync(join(root, 'src', 'locales')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
writeFileSync(join(dist, 'manifest.json'), `${JSON.stringify({ loader: 'widget.js', panel: panelPath, locales, gzipBytes: sizes }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
console.log(`widget: loader ${sizes.loader} B gzipped, panel ${sizes.panel} B gzipped (${panelPath})`);
