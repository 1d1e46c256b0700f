/** How long a receiver has to answer one attempt before it counts as failed (Standard Webhooks suggests 15-30 s at most). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A rotated secret stays valid this long unless the rotation says otherwise. */
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 60 * 60;
/** The longest grace period a rotation may give the old secret. */
export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 60 * 60;
