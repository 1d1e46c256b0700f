// Orders test files so the slowest start first. Jest runs the longest files first when it has
// their times from an earlier run; on a fresh clone (CI) it has none and falls back on file size,
// and the slowest suites here are small files (the fuzz suites are the two smallest of all, the
// chaos and bench smoke suites sit in the last third): they ran at the end while the other worker
// had nothing left, stretching `npm test` by a minute or more on a 2-core machine.
const Sequencer = require('@jest/test-sequencer').default;

/** Paths of the suites that take about a minute or more (browsers, chaos, benches, fuzz, clusters, outages). */
const SLOW = ['/test/browser/', '/test/chaos/', '/test/integration/bench/', '/test/security/fuzz-', '/test/integration/cluster/', '-outage', 'outage-'];

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    // Times known from an earlier run: jest's own order is longest first already.
    if (sorted.some((test) => test.duration != null)) return sorted;
    const slow = (test) => SLOW.some((part) => test.path.includes(part));
    return [...sorted.filter(slow), ...sorted.filter((test) => !slow(test))];
  }
}

module.exports = SlowFirstSequencer;
