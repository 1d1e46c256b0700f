import { httpClient } from './http-client';
import { readUser } from './session-store';

// The tenant a platform admin picked in the app bar. Sent as X-Tenant-Id on every admin call,
// and only for a platform admin (the API refuses the header from any other role): a pick left
// in the browser by a platform admin never reaches the calls of the next user who logs in.

const PICK_KEY = 'switchboard.tenantPick';
export const TENANT_HEADER = 'X-Tenant-Id';

interface Pick {
  userId: string;
  tenantId: string;
}

/** The picked tenant id, when the logged-in user is the platform admin who picked it. */
export function readPickedTenant(): string | undefined {
  const user = readUser();
  if (user?.role !== 'platform_admin') return undefined;
  try {
    const pick = JSON.parse(localStorage.getItem(PICK_KEY) ?? 'null') as Pick | null;
    return pick && pick.userId === user.id ? pick.tenantId : undefined;
  } catch {
    return undefined;
  }
}

/** Picks a tenant (or every tenant, with undefined) for the logged-in platform admin. */
export function pickTenant(tenantId: string | undefined): void {
  const user = readUser();
  if (!tenantId || !user) localStorage.removeItem(PICK_KEY);
  else localStorage.setItem(PICK_KEY, JSON.stringify({ userId: user.id, tenantId } satisfies Pick));
}

/** `headers` plus X-Tenant-Id when a tenant is picked. */
export function withTenantHeader(headers?: HeadersInit): Headers {
  const out = new Headers(headers ?? { Accept: 'application/json' });
  const tenantId = readPickedTenant();
  if (tenantId) out.set(TENANT_HEADER, tenantId);
  return out;
}

/** httpClient with the picked tenant on every call; the data provider and adminFetch use it. */
export const scopedHttpClient: typeof httpClient = (url, options = {}) => httpClient(url, { ...options, headers: withTenantHeader(options.headers) });
