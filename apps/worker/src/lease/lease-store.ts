/**
 * A named lease with a time to live, held under a random token: what Redis gives with
 * SET NX PX. The session leases and the sweeper's single-runner lock both stand on it. Only the
 * token's holder may renew or release, so a lease that expired and was taken by another holder
 * is never touched.
 */
export interface LeaseStore {
  /**
   * True when the leases are rows of the app's own database (Postgres mode): a statement there can
   * take one beside its reads (sb_lease_and_turn_state), saving the take's round trip.
   */
  readonly sharesAppDatabase: boolean;
  /** Takes `key` for `ttlMs` unless a live holder has it; true when it is now ours. */
  take(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Extends our lease to `ttlMs` from now; false when it expired or another holder has it. */
  renew(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Frees `key` if it still holds our token. */
  release(key: string, token: string): Promise<void>;
}
