// A local HTTP server for provider tests: 127.0.0.1, a free port, every request recorded with
// its parsed JSON body, and each request answered by a step the test chose. Never a real API.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1/chat/completions". */
  url: string;
  headers: IncomingMessage['headers'];
  /** The JSON body, parsed; undefined when there was none. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON, asserted field by field in tests
}

/** What the server does with one request. */
export type Handler = (req: RecordedRequest, res: ServerResponse, index: number) => void | Promise<void>;

export class FakeHttpServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly requests: RecordedRequest[],
    private readonly sockets: Set<Socket>,
  ) {}

  static async start(handler: Handler): Promise<FakeHttpServer> {
    const requests: RecordedRequest[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      void readBody(req).then(async (raw) => {
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          body: raw === '' ? undefined : JSON.parse(raw),
        };
        const index = requests.push(recorded) - 1;
        try {
          await handler(recorded, res, index);
        } catch (err) {
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(`fake server handler failed: ${String(err)}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return new FakeHttpServer(server, `http://127.0.0.1:${port}`, requests, sockets);
  }

  /** Stops listening and cuts every open connection, hung ones included. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Server-sent events: each payload one `data:` event, then an optional terminator line. */
export async function sendSse(res: ServerResponse, payloads: string[], separator = '\n\n'): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const payload of payloads) {
    res.write(`data: ${payload}${separator}`);
    // Let each event leave as its own TCP write, as a real server streams them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

/** Never answers: the client's timeout must fire. The socket is cut when the server closes. */
export function hang(): void {
  // nothing: the request stays open
}

/** Cuts the connection without an HTTP answer. */
export function drop(res: ServerResponse): void {
  res.socket?.destroy();
}
