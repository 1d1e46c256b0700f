import { DELTA_FLUSH_MS, DeltaRelay } from './delta-relay';

describe('DeltaRelay', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function relay() {
    const sent: string[] = [];
    return { sent, relay: new DeltaRelay((d) => sent.push(d), DELTA_FLUSH_MS, () => Date.now()) };
  }

  it('joins the deltas that arrive together into one event, sent on the next timer tick', () => {
    const { sent, relay: r } = relay();
    for (const d of ['Olá', '! Como', ' posso', ' ajudar?']) r.push(d);
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(0);
    expect(sent).toEqual(['Olá! Como posso ajudar?']);
  });

  it('sends at most one event per flush interval while deltas keep coming, in order and whole', () => {
    const { sent, relay: r } = relay();
    for (let i = 0; i < 50; i++) {
      r.push(`${i} `);
      jest.advanceTimersByTime(2);
    }
    r.flush();
    // 100 ms of deltas: the first at once, then one per 20 ms, then the rest on flush.
    expect(sent.length).toBeLessThanOrEqual(100 / DELTA_FLUSH_MS + 2);
    expect(sent.join('')).toBe(Array.from({ length: 50 }, (_, i) => `${i} `).join(''));
  });

  it('sends what is pending at once on flush (before the commit event), and nothing when nothing is', () => {
    const { sent, relay: r } = relay();
    r.flush();
    r.push('a');
    r.flush();
    expect(sent).toEqual(['a']);
    jest.advanceTimersByTime(100);
    expect(sent).toEqual(['a']);
  });

  it('holds what is pending when the stream ends, for the flush that goes with the commit event', () => {
    const { sent, relay: r } = relay();
    r.push('eco: ');
    r.push('um');
    r.hold();
    // The timer armed by the first push is cancelled: nothing leaves before the commit.
    jest.advanceTimersByTime(100);
    expect(sent).toEqual([]);
    r.flush();
    expect(sent).toEqual(['eco: um']);
    r.flush();
    expect(sent).toEqual(['eco: um']);
  });
});
