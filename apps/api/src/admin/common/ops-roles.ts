import type { UserRole } from '@switchboard/db';

// Operations (issue 5): who may look at the pipeline's backlog and dead letters and act on
// them. Operators run day-to-day support, so they may redrive and hand back; viewers only read
// the console's ordinary pages.

/** Read deliveries, dead letters and queue counts; redrive them; hand sessions back. */
export const OPERATORS: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator'];
