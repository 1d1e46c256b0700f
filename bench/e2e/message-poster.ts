import http from 'node:http';

// Posts channel messages to the API from the bench process, the way a channel would.

export interface OutgoingMessage {
  session: string;
  text: string;
}

export class MessagePoster {
  failures = 0;
  lastFailure = '';
  // Its own keep-alive pool: 32 connections at most, so an open-loop burst queues here instead
  // of opening hundreds of sockets (a channel would pool its connections too).
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  close(): void {
    this.agent.destroy();
  }

  async post(m: OutgoingMessage): Promise<void> {
    try {
      const { status, body } = await this.request(JSON.stringify(m));
      if (status !== 202) {
        this.failures++;
        this.lastFailure = `${status} ${body.slice(0, 300)}`;
      }
    } catch (err) {
      this.failures++;
      this.lastFailure = (err as Error).message;
    }
  }

  private request(payload: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.baseUrl}/v1/messages`,
        {
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${this.apiKey}` },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Posts every message with at most `concurrency` requests in flight. */
  async postAll(messages: OutgoingMessage[], concurrency: number): Promise<void> {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < messages.length) await this.post(messages[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, messages.length) }, lane));
  }
}

/** N sessions × M messages, interleaved (every session's first message, then every second, ...). */
export function sessionMessages(prefix: string, sessions: number, perSession: number): OutgoingMessage[] {
  const out: OutgoingMessage[] = [];
  for (let m = 0; m < perSession; m++) {
    for (let s = 0; s < sessions; s++) out.push({ session: `${prefix}-${s}`, text: `Mensagem ${m + 1} da sessão ${s}` });
  }
  return out;
}
