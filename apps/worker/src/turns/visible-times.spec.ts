import { visibleTimes } from './commit-turn';

describe('visibleTimes (the engine afterMs of outbound messages)', () => {
  const now = 1_000_000;

  it('leaves messages without a delay visible at once', () => {
    expect(visibleTimes([{}, {}], now)).toEqual([undefined, undefined]);
  });

  it('adds delays along the list, and keeps a later message behind a delayed one', () => {
    expect(visibleTimes([{}, { afterMs: 1000 }, {}, { afterMs: 500 }], now)).toEqual([undefined, now + 1000, now + 1000, now + 1500]);
  });

  it('ignores zero and negative delays', () => {
    expect(visibleTimes([{ afterMs: 0 }, { afterMs: -5 }], now)).toEqual([undefined, undefined]);
  });
});
