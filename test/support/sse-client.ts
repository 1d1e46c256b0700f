import http from 'node:http';

// A minimal Server-Sent Events client for the stream tests: plain node http, no reconnects.

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
  id?: string;
}

/** A minimal SSE reader: collects events and comment lines, and resolves waits as they arrive. */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  private buffer = '';
  private waiters: (() => void)[] = [];
  private req?: http.ClientRequest;
  private res?: http.IncomingMessage;

  /** Resolves once the response headers and the first comment arrived (the subscription is live). */
  open(url: string, key: string, headers: Record<string, string> = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.req = http.get(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', ...headers } }, (res) => {
        this.res = res;
        this.status = res.statusCode ?? 0;
        this.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.feed(chunk));
        res.on('error', () => undefined);
        void this.until(() => this.comments.length > 0).then(() => resolve(), reject);
      });
      this.req.on('error', reject);
    });
  }

  async until<T>(probe: () => T | undefined | false, timeoutMs = 90_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE condition not met within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.res?.destroy();
    this.req?.destroy();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      let id: string | undefined;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) this.events.push({ event, data: JSON.parse(data) as Record<string, unknown>, ...(id && { id }) });
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}
