// Preloaded with `node -r` into an app process the bench wants to profile. Starts V8's sampling
// profiler at once and writes a .cpuprofile into BENCH_PROFILE_DIR on SIGWINCH. (`--cpu-prof`
// cannot be used: the apps re-raise SIGTERM after their shutdown hooks, and a process killed by
// a signal never writes its profile. SIGWINCH because Nest's shutdown hooks take SIGUSR2 and
// Node's inspector takes SIGUSR1; a terminal resize means nothing to a server.)
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable', () => {
    session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start'));
  });
  process.on('SIGWINCH', () => {
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${Date.now()}-${process.pid}.cpuprofile`);
      // Written under a temporary name and renamed, so the bench never reads half a file.
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.tmp`, file);
      // Start again so a second SIGWINCH profiles the next phase only.
      session.post('Profiler.start');
    });
  });
}
