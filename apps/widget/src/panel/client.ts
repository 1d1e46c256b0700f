import type { paths } from '@switchboard/client';
import { SseParser, type SseMessage } from './sse';

// The widget's side of /v1/widget/:publicId: the visitor token (kept in localStorage so a
// returning visitor continues), history, sends that survive network drops, and the live stream
// with resume. No dependency: fetch, and a small SSE reader because EventSource cannot send the
// token in a header.

// Answers typed by the API's OpenAPI document (@switchboard/client, types only: nothing of it
// reaches the bundle): a route or field the API stops declaring stops compiling here.
/** The routes under /v1/widget/{publicId}/ the API declares: sessions, messages, identify, stream. */
type WidgetRoute = { [P in keyof paths]: P extends `/v1/widget/{publicId}/${infer Route}` ? Route : never }[keyof paths];
type JsonAnswer<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

export type Grant = JsonAnswer<paths['/v1/widget/{publicId}/sessions']['post']>;
export type WidgetSettingsView = Grant['widget'];
type HistoryPage = JsonAnswer<paths['/v1/widget/{publicId}/messages']['get']>;
export type HistoryMessage = HistoryPage['messages'][number];
type SentMessage = paths['/v1/widget/{publicId}/messages']['post']['responses'][202]['content']['application/json'];
export type IdentifyBody = NonNullable<paths['/v1/widget/{publicId}/identify']['post']['requestBody']>['content']['application/json'];

export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterMs?: number,
    /** The agent's fallback message, when the API refused the message over the tenant's quota. */
    readonly fallbackMessage?: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** A send is retried this long (network down, 5xx, 429) before the widget shows "Not sent". */
const SEND_PATIENCE_MS = 120_000;
/** No byte (the server pings every 15 s) for this long: the connection is dead, reconnect. */
const STREAM_SILENCE_MS = 40_000;

export class WidgetClient {
  private token: string | undefined;
  private readonly storageKey: string;

  constructor(
    private readonly apiBase: string,
    private readonly widgetId: string,
  ) {
    this.storageKey = `switchboard.widget.${widgetId}`;
  }

  private url(route: WidgetRoute, query = ''): string {
    return new URL(`v1/widget/${encodeURIComponent(this.widgetId)}/${route}${query}`, this.apiBase).href;
  }

  /** A visitor token: the kept one renewed (same conversation), or a new visitor's. */
  async start(): Promise<Grant> {
    const kept = readStorage(this.storageKey);
    const grant = await this.call<Grant>('POST', 'sessions', kept ? { token: kept } : {}, false);
    this.token = grant.token;
    writeStorage(this.storageKey, grant.token);
    return grant;
  }

  async history(): Promise<Pick<HistoryPage, 'session' | 'messages'>> {
    const messages: HistoryMessage[] = [];
    let after: string | null = null;
    let session: HistoryPage['session'] = null;
    do {
      const page: HistoryPage = await this.call('GET', 'messages', undefined, true, after ? `?after=${after}` : '');
      session = page.session;
      messages.push(...page.messages);
      after = page.next;
    } while (after);
    return { session, messages };
  }

  /** Sends a message under the widget's id, retrying through drops; the server stores an id once. */
  async send(id: string, text: string): Promise<SentMessage> {
    const deadline = Date.now() + SEND_PATIENCE_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call('POST', 'messages', { id, text });
      } catch (err) {
        const retryable = !(err instanceof WidgetApiError) || err.status >= 500 || err.status === 429;
        const wait = err instanceof WidgetApiError && err.retryAfterMs ? err.retryAfterMs : Math.min(1000 * 2 ** attempt, 15_000);
        if (!retryable || Date.now() + wait > deadline) throw err;
        await sleep(wait);
      }
    }
  }

  async identify(values: IdentifyBody): Promise<void> {
    await this.call('POST', 'identify', values);
  }

  /**
   * Follows the conversation until `signal` aborts: reconnects after any drop with backoff and
   * sends the last event id back (Last-Event-ID), so the server resends exactly what was missed.
   */
  async follow(cursor: string, onEvent: (e: SseMessage) => void, onState: (s: 'open' | 'reconnecting') => void, signal: AbortSignal): Promise<void> {
    let delay = 1000;
    while (!signal.aborted) {
      const attempt = new AbortController();
      const stop = () => attempt.abort();
      signal.addEventListener('abort', stop, { once: true });
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const feedWatchdog = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(stop, STREAM_SILENCE_MS);
      };
      try {
        feedWatchdog();
        const res = await fetch(this.url('stream'), {
          headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream', 'last-event-id': cursor },
          signal: attempt.signal,
          cache: 'no-store',
        });
        if (res.status === 401) await this.start(); // expired or revoked: renew, then reconnect at once
        else if (res.status === 403 || res.status === 404) return; // the widget or this page is no longer allowed: retrying cannot help
        else if (!res.ok || !res.body) throw await apiError(res);
        else {
          onState('open');
          delay = 1000;
          const parser = new SseParser();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            feedWatchdog();
            for (const e of parser.feed(value)) {
              if (e.id) cursor = e.id;
              onEvent(e);
            }
          }
        }
      } catch {
        // a drop, a refused connection or a dead one: reconnect below
      } finally {
        clearTimeout(watchdog);
        signal.removeEventListener('abort', stop);
      }
      if (signal.aborted) return;
      onState('reconnecting');
      await sleep(delay + Math.random() * 300, signal);
      delay = Math.min(delay * 2, 15_000);
    }
  }

  private async call<T>(method: 'GET' | 'POST', route: WidgetRoute, body?: unknown, renew = true, query = ''): Promise<T> {
    const res = await fetch(this.url(route, query), {
      method,
      headers: { ...(this.token && { authorization: `Bearer ${this.token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    if (res.status === 401 && renew) {
      await this.start();
      return this.call(method, route, body, false, query);
    }
    if (!res.ok) throw await apiError(res);
    return (await res.json()) as T;
  }
}

async function apiError(res: Response): Promise<WidgetApiError> {
  let code = 'http-error';
  let message = `HTTP ${res.status}`;
  let fallbackMessage: string | undefined;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: { fallbackMessage?: unknown } } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
    if (typeof body.error?.details?.fallbackMessage === 'string') fallbackMessage = body.error.details.fallbackMessage;
  } catch {
    // not JSON
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  return new WidgetApiError(res.status, code, message, retryAfter > 0 ? retryAfter * 1000 : undefined, fallbackMessage);
}

// Storage can be off (privacy settings): the chat then works, without continuing next time.
function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not kept
  }
}
