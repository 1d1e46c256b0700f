// engine.md §4: a failed or empty speak round becomes an outcome: deferral on the retry ladder
// with wake keys, or the run ends; turn({ wake }) retries; stale wakes are ignored.
import { pendingWakes, ProviderError, type ProviderErrorKind, RETRY_LADDER_MS } from '@falai/agent';
import { agent, model, T0 } from './support';

const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'p', prompt: 'fale' }, { id: 'fim', say: 'Fim.' }] }];

/** A model whose speak calls fail with `kind` while `failing()` says so. */
function flaky(kind: ProviderErrorKind, failing: () => boolean, extra: { resetAt?: Date } = {}) {
  return model(() => {
    if (failing()) throw new ProviderError({ kind, message: `${kind} failure`, ...extra });
    return { structured: { message: 'voltei' } };
  });
}

const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

describe('provider failures in a talk step', () => {
  it('provider-unavailable defers the step: wake at +1m with key runId:stepId:visit:retry:atMs', async () => {
    const a = agent({ provider: flaky('overloaded', () => true), flows });
    const r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    const atMs = Date.parse(T0) + 60_000;
    expect(r.messages).toEqual([]);
    expect(r.schedule).toEqual([{ key: `f#m1:p:1:retry:${atMs}`, at: at(60_000) }]);
    expect(r.outcomes).toEqual([
      expect.objectContaining({ runId: 'f#m1', stepId: 'p', kind: 'prompt', status: 'deferred', code: 'provider-unavailable', until: at(60_000), llmCalls: 1 }),
    ]);
    expect(r.session.runs[0]).toMatchObject({ status: 'waiting', waiting: { key: `f#m1:p:1:retry:${atMs}`, at: at(60_000) } });
    expect(r.changed).toBe(true);
  });

  it.each<ProviderErrorKind>(['overloaded', 'rate-limited', 'timeout', 'network', 'empty', 'unknown'])('%s is provider-unavailable', async (kind) => {
    const r = await agent({ provider: flaky(kind, () => true), flows }).turn({ sessionId: 's', message: 'oi' });
    expect(r.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-unavailable' });
  });

  it('an error that is not a ProviderError counts as unknown: provider-unavailable', async () => {
    const provider = model(() => {
      throw new TypeError('fetch failed');
    });
    const r = await agent({ provider, flows }).turn({ sessionId: 's', message: 'oi' });
    expect(r.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-unavailable', message: 'fetch failed', detail: { kind: 'unknown', attempt: 1 } });
  });

  it('the ladder climbs +1m, +5m, +15m, +1h, +6h through wakes, and the 6th failure ends the run failed', async () => {
    const a = agent({ provider: flaky('timeout', () => true), flows });
    let r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const wake = r.schedule[0];
      delays.push(Date.parse(wake.at) - a.clock.now().getTime());
      a.clock.set(wake.at);
      r = await a.turn({ sessionId: 's', wake: wake.key });
    }
    expect(delays).toEqual([...RETRY_LADDER_MS]);
    expect(delays).toEqual([60_000, 300_000, 900_000, 3_600_000, 21_600_000]);
    expect(r.schedule).toEqual([]);
    expect(r.outcomes[0]).toMatchObject({ status: 'failed', code: 'provider-unavailable', detail: { attempt: 6 } });
    expect(r.ended).toEqual([expect.objectContaining({ id: 'f#m1', reason: 'failed', code: 'provider-unavailable' })]);
    expect(r.session.runs).toEqual([]);
  });

  it('a valid wake runs the retry: the step speaks and the run moves on', async () => {
    let fail = true;
    const a = agent({ provider: flaky('overloaded', () => fail), flows });
    const deferred = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    fail = false;
    a.clock.set(deferred.schedule[0].at);
    const retried = await a.turn({ sessionId: 's', wake: deferred.schedule[0].key });
    expect(retried.changed).toBe(true);
    expect(retried.messages).toEqual([
      { text: 'voltei', kind: 'ai', key: 'f#m1:p:1' },
      { text: 'Fim.', kind: 'verbatim', key: 'f#m1:fim:1' },
    ]);
    expect(retried.llmCalls).toBe(1);
    expect(retried.ended.map((r) => r.reason)).toEqual(['completed']);
  });

  it('pendingWakes rebuilds the schedule from the saved session alone', async () => {
    const a = agent({ provider: flaky('overloaded', () => true), flows });
    const r = await a.turn({ sessionId: 's', message: 'oi' });
    expect(pendingWakes(r.session)).toEqual(r.schedule);
  });

  it('a wake no run waits on is ignored: stale-wake, changed false, no call', async () => {
    const a = agent({ provider: flaky('overloaded', () => true), flows });
    const deferred = await a.turn({ sessionId: 's', message: 'oi' });
    const stale = await a.turn({ sessionId: 's', wake: 'f#other:p:1:retry:1', session: deferred.session });
    expect(stale.changed).toBe(false);
    expect(stale.llmCalls).toBe(0);
    expect(stale.outcomes).toEqual([expect.objectContaining({ status: 'skipped', code: 'stale-wake' })]);
    expect(stale.session).toEqual(deferred.session);
  });

  it('a wake that already ran is stale the second time', async () => {
    let fail = true;
    const a = agent({ provider: flaky('overloaded', () => fail), flows });
    const deferred = await a.turn({ sessionId: 's', message: 'oi' });
    fail = false;
    await a.turn({ sessionId: 's', wake: deferred.schedule[0].key });
    const again = await a.turn({ sessionId: 's', wake: deferred.schedule[0].key });
    expect(again).toMatchObject({ changed: false, outcomes: [expect.objectContaining({ code: 'stale-wake' })] });
  });

  it('a customer message while the step waits retries at once, and the old wake goes stale', async () => {
    let fail = true;
    const a = agent({ provider: flaky('overloaded', () => fail), flows });
    const deferred = await a.turn({ sessionId: 's', message: 'oi' });
    fail = false;
    const answered = await a.turn({ sessionId: 's', message: 'alô?' });
    expect(answered.messages.map((m) => m.text)).toEqual(['voltei', 'Fim.']);
    const late = await a.turn({ sessionId: 's', wake: deferred.schedule[0].key });
    expect(late.outcomes[0].code).toBe('stale-wake');
  });

  it('quota with a stated reset defers until the later of the reset and the next rung', async () => {
    const later = new Date(Date.parse(T0) + 30 * 60_000);
    const r = await agent({ provider: flaky('quota', () => true, { resetAt: later }), flows }).turn({ sessionId: 's', message: 'oi' });
    expect(r.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-quota', until: later.toISOString() });
    const sooner = new Date(Date.parse(T0) + 10_000);
    const r2 = await agent({ provider: flaky('quota', () => true, { resetAt: sooner }), flows }).turn({ sessionId: 's', message: 'oi' });
    expect(r2.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-quota', until: at(60_000) });
  });

  it('a stated Retry-After later than the rung sets the retry time', async () => {
    const provider = model(() => {
      throw new ProviderError({ kind: 'rate-limited', message: 'slow down', retryAfterMs: 120_000 });
    });
    const r = await agent({ provider, flows }).turn({ sessionId: 's', message: 'oi' });
    expect(r.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-unavailable', until: at(120_000) });
  });

  it.each<[ProviderErrorKind, string]>([
    ['quota', 'provider-quota'],
    ['auth', 'provider-auth'],
    ['context', 'provider-context'],
    ['invalid', 'provider-invalid'],
  ])('%s (no wait can fix it) ends the run failed with %s', async (kind, code) => {
    const r = await agent({ provider: flaky(kind, () => true), flows }).turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r.outcomes).toEqual([expect.objectContaining({ status: 'failed', code, stepId: 'p' })]);
    expect(r.ended).toEqual([expect.objectContaining({ id: 'f#m1', reason: 'failed', code })]);
    expect(r.schedule).toEqual([]);
    expect(r.messages).toEqual([]);
    expect(r.session.runs).toEqual([]);
  });

  it('tool data from rounds that completed is kept when a later round fails', async () => {
    const provider = model((req) => {
      if (req.round === 1) return { toolCalls: [{ name: 'reservar', arguments: {} }] };
      throw new ProviderError({ kind: 'overloaded', message: 'busy' });
    });
    const a = agent({ provider, fields: { reserva: { type: 'string' } }, tools: [{ id: 'reservar', handler: () => ({ data: { reserva: 'RES-1' } }) }], flows });
    const r = await a.turn({ sessionId: 's', message: 'oi' });
    expect(r.session.data).toEqual({ reserva: 'RES-1' });
    expect(r.outcomes[0]).toMatchObject({ status: 'deferred', llmCalls: 2 });
  });
});
