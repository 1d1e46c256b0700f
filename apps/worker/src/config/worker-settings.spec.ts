import { LEASE_BUSY_DELAY_MS, leaseBusyDelayMs } from './worker-settings';

describe('leaseBusyDelayMs', () => {
  it('retries a fresh job soon: the holder may be releasing the lease just now', () => {
    expect(leaseBusyDelayMs(0, () => 0)).toBe(LEASE_BUSY_DELAY_MS.fresh.min);
    expect(leaseBusyDelayMs(LEASE_BUSY_DELAY_MS.freshMs - 1, () => 0.999)).toBeLessThan(LEASE_BUSY_DELAY_MS.fresh.min + LEASE_BUSY_DELAY_MS.fresh.jitter);
  });

  it('backs an older job off to the full wait, with jitter, so a burst does not spin', () => {
    expect(leaseBusyDelayMs(LEASE_BUSY_DELAY_MS.freshMs, () => 0)).toBe(LEASE_BUSY_DELAY_MS.min);
    expect(leaseBusyDelayMs(60_000, () => 0.5)).toBe(LEASE_BUSY_DELAY_MS.min + Math.floor(0.5 * LEASE_BUSY_DELAY_MS.jitter));
  });
});
