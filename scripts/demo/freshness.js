// "Is this output newer than everything it is built from?" — by file modification times, which
// git updates on checkout and editors on save. Used to skip a build that would change nothing;
// `npm run demo -- --rebuild` ignores it.
const fs = require('node:fs');
const path = require('node:path');

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);

/** Newest mtime (ms) among the files under each path; 0 when none exists. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p)) {
        if (!SKIPPED_DIRS.has(entry)) visit(path.join(p, entry));
      }
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const p of paths) visit(p);
  return newest;
}

function isUpToDate(output, inputs) {
  let built;
  try {
    built = fs.statSync(output).mtimeMs;
  } catch {
    return false;
  }
  return built >= newestMtime(inputs);
}

module.exports = { newestMtime, isUpToDate };
