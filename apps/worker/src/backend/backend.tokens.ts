/** The worker's LeaseStore of the chosen backend (session leases, the sweeper's lock). */
export const LEASE_STORE = Symbol('LEASE_STORE');
/** The worker's SessionEventPublisher of the chosen backend. */
export const SESSION_EVENT_PUBLISHER = Symbol('SESSION_EVENT_PUBLISHER');
/** Postgres mode's runtime pool (a CountingPool: leases, notifications); null in Redis mode. */
export const RUNTIME_POOL = Symbol('RUNTIME_POOL');
