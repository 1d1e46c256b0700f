import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { assertAllowedLiteral, ForbiddenAddressError, guardedLookup, type Resolve } from '@switchboard/outbound';

export class HttpToolCallError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'HttpToolCallError';
    this.code = code;
  }
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Sent on every hop. */
  headers: Record<string, string>;
  /** Sent only to the origin of `url`: a redirect elsewhere does not get them. */
  originHeaders: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  allowedHosts: ReadonlySet<string>;
  maxRedirects: number;
  /** How host names are resolved; the system resolver unless a test stands in for DNS. */
  resolve?: Resolve;
}

export interface HttpCallResult {
  status: number;
  contentType: string | undefined;
  /** The final response's headers (a console test call shows them). */
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP tool call with the guards an SSRF-safe client needs: every hop's host is checked
 * (redirects included) inside the socket's lookup, so the connection goes to the address that
 * was checked and DNS is asked once per connection; the whole call
 * (redirects and body) has one deadline, and the response body is cut off past a size cap.
 */
export async function guardedHttpCall(call: HttpCall): Promise<HttpCallResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), call.timeoutMs);
  try {
    let url = parseUrl(call.url);
    const origin = url.origin;
    let method = call.method;
    let body = call.body;
    const lookup = guardedLookup(call.allowedHosts, call.resolve);
    for (let hop = 0; ; hop++) {
      assertAllowedLiteral(url.hostname, call.allowedHosts);
      const headers = { ...call.headers, ...(url.origin === origin ? call.originHeaders : {}) };
      const res = await send(url, method, headers, body, lookup, abort.signal);
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.resume();
        if (hop >= call.maxRedirects) throw new HttpToolCallError('http-tool-redirects', `too many redirects (more than ${call.maxRedirects})`);
        url = parseUrl(new URL(location, url).toString());
        // 303, and 301/302 after a POST as browsers do: the next hop is a GET without a body.
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method !== 'GET')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return {
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'],
        headers: res.headers,
        body: await readCapped(res, call.maxResponseBytes),
      };
    }
  } catch (err) {
    if (abort.signal.aborted) throw new HttpToolCallError('http-tool-timeout', `no answer within ${call.timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HttpToolCallError('http-tool-url', `not a valid URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpToolCallError('http-tool-url', `only http and https URLs may be called, not ${url.protocol}`);
  }
  return url;
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  lookup: LookupFunction,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        headers: { ...headers, ...(body !== undefined && { 'content-length': Buffer.byteLength(body).toString() }) },
        lookup,
        // No keep-alive pool: a reused socket would skip the lookup that checks the address.
        agent: false,
        signal,
      },
      resolve,
    );
    req.on('error', (err) => {
      if (signal.aborted || err instanceof ForbiddenAddressError) reject(err);
      else reject(new HttpToolCallError('http-tool-network', `request failed: ${err.message}`));
    });
    req.end(body);
  });
}

function readCapped(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new HttpToolCallError('http-tool-response-too-large', `the response is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}
