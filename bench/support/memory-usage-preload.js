// Preloaded with `node -r` into the worker by the memory bench: writes process.memoryUsage() as
// JSON into BENCH_MEMORY_DIR on SIGWINCH, and on SIGURG the same after a full GC (needs
// --expose-gc), so the bench can tell live heap from garbage and the JS heap from native memory
// (code, wasm, buffers). Signals that Nest's shutdown hooks and Node leave alone (see
// cpu-profiler-preload.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_MEMORY_DIR;
if (dir) {
  const report = (collect) => {
    if (collect && typeof global.gc === 'function') global.gc();
    const file = path.join(dir, `${Date.now()}-${process.pid}.json`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    fs.renameSync(`${file}.tmp`, file);
  };
  process.on('SIGWINCH', () => report(false));
  process.on('SIGURG', () => report(true));
}
