import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  answered: number;
}

/**
 * A local webhook receiver. Each path answers 500 while it has failures left (-1: always), then
 * 200, and records every request it got.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private readonly failuresLeft = new Map<string, number>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const left = this.failuresLeft.get(req.url!) ?? 0;
        if (left !== 0) this.failuresLeft.set(req.url!, left - 1);
        const answered = left !== 0 ? 500 : 200;
        this.received.push({ path: req.url!, headers: req.headers, body, answered });
        res.statusCode = answered;
        res.end(answered === 200 ? 'ok' : 'receiver down');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The path answers 500 `n` times (-1: until told otherwise), then 200. */
  failNext(path: string, n: number): void {
    this.failuresLeft.set(path, n);
  }

  hits(path: string): ReceivedHook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }
}
