import Module from 'node:module';

// The generated Prisma client imports its siblings as './x.js' (Node16 style) while the files
// on disk are './x.ts'. tsc and jest map that; @swc-node/register's require hook does not, so
// a TypeScript entry point run directly falls back to the .ts file when the .js one is missing.
// Imported first by prisma/seed.ts; it changes resolution for this process only.

type Resolve = (request: string, parent: unknown, isMain: boolean, options: unknown) => string;
const internals = Module as unknown as { _resolveFilename: Resolve };
const resolve = internals._resolveFilename;

internals._resolveFilename = function resolveTsSource(request, parent, isMain, options) {
  try {
    return resolve.call(this, request, parent, isMain, options);
  } catch (err) {
    if (!/^\.{1,2}\/.*\.js$/.test(request)) throw err;
    return resolve.call(this, request.slice(0, -3) + '.ts', parent, isMain, options);
  }
};
