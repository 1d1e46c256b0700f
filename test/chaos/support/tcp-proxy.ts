import { createServer, connect, type Server, type Socket } from 'node:net';

// A TCP proxy in front of Postgres for the chaos suite. `outage(ms)` is what the API and the
// workers see of a database restart: every open connection is reset at once and new ones are
// refused until the database is "back". The shared Postgres serves every other suite at the same
// time, so the suite restarts this path to it rather than the server itself.

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private down = false;
  private server?: Server;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Resets every connection and refuses new ones for `ms`; resolves when service is back. */
  async outage(ms: number): Promise<void> {
    this.down = true;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    await new Promise((r) => setTimeout(r, ms));
    this.down = false;
  }

  get isDown(): boolean {
    return this.down;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        (s === client ? upstream : client).destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
