import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake platform received. */
export interface PlatformHit {
  method: string;
  /** Path and query, e.g. /bot123:abc/sendMessage. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A local stand-in for a platform's API (Telegram's Bot API, the Graph API, Chatwoot's API):
 * records every request and answers it with `answer(hit)`, or with the next one-off answer
 * queued by `answerNext` for requests whose path ends with a suffix (a 429 for the next send).
 */
export class FakePlatform {
  readonly hits: PlatformHit[] = [];
  private server?: Server;
  private readonly queued: { suffix: string; answer: FakeAnswer }[] = [];

  constructor(private readonly answer: (hit: PlatformHit) => FakeAnswer) {}

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // keep the text
        }
        const hit: PlatformHit = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() };
        this.hits.push(hit);
        const i = this.queued.findIndex((q) => hit.path.split('?')[0].endsWith(q.suffix));
        const answer = i >= 0 ? this.queued.splice(i, 1)[0].answer : this.answer(hit);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next request whose path ends with `suffix` gets `answer` instead of the usual one. */
  answerNext(suffix: string, answer: FakeAnswer): void {
    this.queued.push({ suffix, answer });
  }

  /** Requests whose path (without query) ends with `suffix`, in arrival order. */
  to(suffix: string): PlatformHit[] {
    return this.hits.filter((h) => h.path.split('?')[0].endsWith(suffix));
  }
}
