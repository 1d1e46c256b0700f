import { API_URL } from './http-client';
import { scopedHttpClient } from './tenant-pick';

/** The API's error body: `{ error: { code, message, details? } }`. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

/** A JSON call to the admin REST outside react-admin's CRUD verbs (publish, diff, usage...). */
export async function adminFetch<T>(path: string, init: { method?: string; body?: unknown; query?: Record<string, string | undefined> } = {}): Promise<T> {
  const query = Object.entries(init.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  const qs = query.length ? `?${new URLSearchParams(query).toString()}` : '';
  const { json } = await scopedHttpClient(`${API_URL}${path}${qs}`, {
    method: init.method ?? 'GET',
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return json as T;
}

/** The error body react-admin's HttpError carries, when the API sent one. */
export function errorBodyOf(err: unknown): ApiErrorBody['error'] | undefined {
  const body = (err as { body?: ApiErrorBody } | null)?.body;
  return body?.error;
}

export function messageOf(err: unknown): string {
  return errorBodyOf(err)?.message ?? (err instanceof Error ? err.message : String(err));
}
