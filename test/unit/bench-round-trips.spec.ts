import { sumSamples } from '../../bench/support/round-trips';

// The bench reads Postgres round trips from the apps' Prometheus text; a misread would print a
// wrong MET/MISS for the round-trip targets.

describe('the bench’s reading of switchboard_pg_round_trips_total', () => {
  const name = 'switchboard_pg_round_trips_total';

  it('reads an unlabelled counter and sums a labelled one', () => {
    expect(sumSamples(`# HELP ${name} x\n# TYPE ${name} counter\n${name} 1234\n`, name)).toBe(1234);
    expect(sumSamples(`${name}{pool="api"} 10\n${name}{pool="admin",kind="a}b"} 5 1700000000\n`, name)).toBe(15);
  });

  it('says absent when only other series (or longer names) are there', () => {
    expect(sumSamples(`${name}_created 1700000000\nprocess_cpu_seconds_total 3\n# HELP ${name} x\n`, name)).toBeUndefined();
  });
});
