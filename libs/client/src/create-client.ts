import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema';

export type SwitchboardClient = Client<paths>;

export interface SwitchboardClientOptions {
  /** Origin of the API, e.g. https://chat.example.com ('' for same-origin calls in a browser). */
  baseUrl: string;
  /** A channel's API key (sb_live_...), for /v1/messages and the other channel routes. */
  apiKey?: string;
  /** A console access token or a widget visitor token; read on every request, so it can change. */
  token?: string | (() => string | null | undefined);
  /** Replaces globalThis.fetch: the console's adds its session refresh (apps/admin). */
  fetch?: (input: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

/**
 * A client of every route the API declares (openapi-fetch over the generated `paths`): calls
 * are checked against the document, answers typed by it.
 *   const sb = createSwitchboardClient({ baseUrl, apiKey });
 *   const { data, error } = await sb.POST('/v1/messages', { body: { session: 'visitor-42', text: 'Hi' } });
 */
export function createSwitchboardClient(options: SwitchboardClientOptions): SwitchboardClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.headers,
    ...(options.fetch && { fetch: options.fetch }),
  });
  client.use(bearer(options));
  return client;
}

function bearer({ apiKey, token }: SwitchboardClientOptions): Middleware {
  return {
    onRequest({ request }) {
      const credential = apiKey ?? (typeof token === 'function' ? token() : token);
      if (credential && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${credential}`);
      return request;
    },
  };
}
