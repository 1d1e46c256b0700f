#!/usr/bin/env node
// Applies prisma/migrations/*.sql with dbmate (a maintained runner that ships its binary in its
// npm package; Prisma Migrate needs a native engine these machines cannot download).
// Usage: node scripts/migrate.js [up|status|rollback] — reads DATABASE_URL.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');

/** dbmate's driver asks for TLS unless told otherwise; local and compose Postgres have none. */
function dbmateUrl(url) {
  const u = new URL(url);
  if (u.protocol === 'postgresql:') u.protocol = 'postgres:';
  if (!u.searchParams.has('sslmode')) u.searchParams.set('sslmode', 'disable');
  return u.toString();
}

function migrate(url, command = 'up') {
  const bin = require.resolve('dbmate/dist/cli.js', { paths: [root] });
  execFileSync(
    process.execPath,
    [bin, '--url', dbmateUrl(url), '--migrations-dir', path.join(root, 'prisma/migrations'), '--no-dump-schema', '--wait', command],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

module.exports = { migrate, dbmateUrl };

if (require.main === module) {
  const url = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/switchboard';
  migrate(url, process.argv[2] || 'up');
}
