// Small HTTP helpers for tests that talk to the API process started by globalSetup.

export function apiUrl(path: string, baseUrl?: string): string {
  const base = baseUrl ?? process.env.TEST_API_URL;
  if (!base) throw new Error('TEST_API_URL is not set: globalSetup starts the API.');
  return base + path;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  elapsedMs: number;
}

export async function request<T = Json>(
  method: string,
  path: string,
  opts: { key?: string; json?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string>; /** Another API process than the shared one. */ baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  if (opts.rawBody !== undefined) body = opts.rawBody;
  if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
  const started = Date.now();
  const res = await fetch(apiUrl(path, opts.baseUrl), { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (e.g. /metrics)
  }
  return { status: res.status, headers: res.headers, body: parsed as T, elapsedMs: Date.now() - started };
}
