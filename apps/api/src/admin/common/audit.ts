import type { Prisma } from '@switchboard/db';
import { maskUrlCredentials } from '@switchboard/outbound';
import type { AdminUser } from '../auth/admin-user';

/** Keys whose values never reach the audit log, whatever the entity. */
const SECRET_KEYS = /secret|password|keyhash|token|^key$|encrypted/i;
export const REDACTED = '[redacted]';

/** A URL with something before an @ in its authority: maybe user:pass@ (checked by maskUrlCredentials). */
const URL_WITH_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/**
 * A copy of `value` with every secret-looking key's value replaced, and the user name and
 * password of any URL masked (https://***@host/), at any depth. Run on write and again on read,
 * so rows written before a rule was added are shown by the current one.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return URL_WITH_USERINFO.test(value) ? maskUrlCredentials(value) : value;
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) && v !== null && v !== undefined ? REDACTED : redactSecrets(v)]),
    );
  }
  return value;
}

export interface AuditEntry {
  /** e.g. agent.update, agent.publish, api-key.revoke */
  action: string;
  entityType: string;
  entityId: string | null;
  /** The tenant the entity belongs to; null for platform-level entities (tenants themselves). */
  tenantId: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one AuditLog row in the caller's transaction, so a change and its record commit or
 * roll back together. Secrets are redacted before anything is stored.
 */
export async function recordAudit(tx: Prisma.TransactionClient, user: AdminUser, entry: AuditEntry): Promise<void> {
  const json = (v: unknown) => (v === undefined || v === null ? undefined : (redactSecrets(v) as Prisma.InputJsonValue));
  await tx.auditLog.create({
    data: {
      tenantId: entry.tenantId,
      actorUserId: user.id,
      actorType: 'user',
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      before: json(entry.before),
      after: json(entry.after),
      requestId: user.requestId ?? null,
    },
  });
}
