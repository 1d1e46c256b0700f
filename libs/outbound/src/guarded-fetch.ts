import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { assertAllowedLiteral, guardedLookup, type Resolve } from './address-guard';

/** The fetch signature the model SDKs (openai, @google/genai) accept as their transport. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  allowedHosts: ReadonlySet<string>;
  /** How host names are resolved; the system resolver unless a test stands in for DNS. */
  resolve?: Resolve;
  /** Named in the refusal's message, e.g. "model providers". */
  caller?: string;
}

/**
 * A fetch whose every connection goes through the outbound guard: the socket's own lookup
 * refuses loopback, private, link-local and metadata addresses (so the address checked is the
 * address connected to, DNS rebinding included), and the connector refuses such IP literals,
 * which sockets reach without a lookup. Redirects are not followed: a 3xx reaches the caller
 * as it is, so no hop escapes the check and no credential is replayed to another host.
 *
 * The keep-alive pool is safe here: a reused socket goes to the address that was checked
 * when it was opened.
 */
export function guardedFetch(options: GuardedFetchOptions): FetchLike {
  const lookup = guardedLookup(options.allowedHosts, options.resolve, options.caller);
  const connect = buildConnector({ lookup });
  const dispatcher = new Agent({
    connect: (opts, callback) => {
      try {
        assertAllowedLiteral(opts.hostname, options.allowedHosts, options.caller);
      } catch (err) {
        return callback(err as Error, null);
      }
      connect(opts, callback);
    },
  });
  return (input, init) =>
    // undici's own fetch with its own dispatcher: Node's bundled fetch may be another undici
    // major, whose dispatcher interface differs. Its Request/Response are the web standard's.
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), redirect: 'manual', dispatcher }) as unknown as Promise<Response>;
}
