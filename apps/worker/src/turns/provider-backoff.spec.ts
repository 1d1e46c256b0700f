import { BACKOFF_FOLLOWER_DELAY_MS, backoffWaitMs, type ProviderBackoff } from './provider-backoff';

// Which jobs of a session whose model is down wait for the session's retry, and how long.

const NOW = 1_000_000;
const backoff: ProviderBackoff = { retryAt: NOW + 5_000, deferredAt: NOW - 1_000, deferrals: 2 };
const noJitter = () => 0;
const stillDown = () => false;

describe('backoffWaitMs', () => {
  it('runs now when the session does not wait, or its retry time has come', () => {
    expect(backoffWaitMs(null, NOW - 2_000, stillDown, NOW)).toBeUndefined();
    expect(backoffWaitMs(undefined, undefined, stillDown, NOW)).toBeUndefined();
    expect(backoffWaitMs({ ...backoff, retryAt: NOW }, NOW - 2_000, stillDown, NOW)).toBeUndefined();
  });

  it('makes a job whose message was waiting at the deferral wait until just after the retry time', () => {
    expect(backoffWaitMs(backoff, NOW - 2_000, stillDown, NOW, noJitter)).toBe(5_000 + BACKOFF_FOLLOWER_DELAY_MS.min);
    expect(backoffWaitMs(backoff, backoff.deferredAt, stillDown, NOW, noJitter)).toBe(5_000 + BACKOFF_FOLLOWER_DELAY_MS.min);
    const most = backoffWaitMs(backoff, NOW - 2_000, stillDown, NOW, () => 0.9999)!;
    expect(most).toBeLessThan(5_000 + BACKOFF_FOLLOWER_DELAY_MS.min + BACKOFF_FOLLOWER_DELAY_MS.jitter);
  });

  it('lets a message accepted after the deferral try the model (the customer wrote again)', () => {
    expect(backoffWaitMs(backoff, backoff.deferredAt + 1, stillDown, NOW)).toBeUndefined();
  });

  it("runs now once the agent's model answered another turn after the deferral, and asks about that deferral", () => {
    const asked: number[] = [];
    const answeredSince = (since: number) => (asked.push(since), true);
    expect(backoffWaitMs(backoff, NOW - 2_000, answeredSince, NOW)).toBeUndefined();
    expect(asked).toEqual([backoff.deferredAt]);
  });

  it('makes a job without a message (a wake) wait with the messages', () => {
    expect(backoffWaitMs(backoff, undefined, stillDown, NOW, noJitter)).toBe(5_000 + BACKOFF_FOLLOWER_DELAY_MS.min);
  });
});
