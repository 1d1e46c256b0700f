import type { SwitchboardClient } from './create-client';
import type { DeclaredAnswer, DeclaredBody, DeclaredQuery, Method, Operation, OrElse, PathParams, PathsWith } from './routes';

/** The API's error answer `{ error: { code, message, details? } }`, thrown for every non-2xx. */
export class SwitchboardApiError extends Error {
  readonly code: string;

  constructor(
    readonly status: number,
    readonly body: { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined,
    readonly headers: Headers,
  ) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.code = body?.error?.code ?? 'http-error';
  }
}

type Query = Record<string, string | number | boolean | undefined>;

/** A route's path parameters (required when it has some), query, body and extra headers. */
export type RouteInit<M extends Method, P extends PathsWith<M>> = ([keyof PathParams<P>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<P> }) & {
  query?: OrElse<DeclaredQuery<Operation<M, P>>, Query>;
  body?: OrElse<DeclaredBody<Operation<M, P>>, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

export type RouteAnswer<M extends Method, P extends PathsWith<M>, Fallback> = OrElse<DeclaredAnswer<Operation<M, P>>, Fallback>;

/**
 * One call of a declared route, answering its 2xx body (undefined for an empty one) or throwing
 * SwitchboardApiError. Unlike the client's GET/POST, it takes a route whose parameters the
 * document leaves out: `Fallback` types the answer until the document declares it.
 */
export async function requestRoute<M extends Method, P extends PathsWith<M>, Fallback = unknown>(
  client: SwitchboardClient,
  method: M,
  path: P,
  init: RouteInit<M, P>,
): Promise<RouteAnswer<M, P, Fallback>> {
  const { params, query, body, headers, signal } = init as { params?: Record<string, unknown>; query?: Query; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal };
  const answer = await (client.request as (m: string, p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(method, path, {
    params: { path: params, query: query && Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) },
    ...(body !== undefined && { body }),
    headers,
    signal,
  });
  if (!answer.response.ok) throw new SwitchboardApiError(answer.response.status, answer.error as SwitchboardApiError['body'], answer.response.headers);
  return answer.data as RouteAnswer<M, P, Fallback>;
}
