// Loads .env (the developer's settings) and then .env.example (the documented defaults) into
// process.env without overriding anything already set: the shell wins, then .env, then defaults.
const fs = require('node:fs');
const path = require('node:path');

/** Parses KEY=VALUE lines; `#` comments, blank lines, `export ` and surrounding quotes allowed. */
function parseEnvFile(text) {
  const vars = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2];
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2];
    else value = value.replace(/\s+#.*$/, '');
    vars[match[1]] = value;
  }
  return vars;
}

/** Returns the files that were read, in order. */
function loadEnvFiles(root, env = process.env) {
  const loaded = [];
  for (const name of ['.env', '.env.example']) {
    const file = path.join(root, name);
    if (!fs.existsSync(file)) continue;
    for (const [key, value] of Object.entries(parseEnvFile(fs.readFileSync(file, 'utf8')))) {
      if (env[key] === undefined) env[key] = value;
    }
    loaded.push(name);
  }
  return loaded;
}

module.exports = { parseEnvFile, loadEnvFiles };
