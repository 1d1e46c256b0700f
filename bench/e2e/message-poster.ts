// Posts channel messages to the API from the bench process, the way a channel would.

export interface OutgoingMessage {
  session: string;
  text: string;
}

export class MessagePoster {
  failures = 0;
  lastFailure = '';

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async post(m: OutgoingMessage): Promise<void> {
    try {
      const res = await fetch(`${this.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.apiKey}` },
        body: JSON.stringify(m),
      });
      if (res.status !== 202) {
        this.failures++;
        this.lastFailure = `${res.status} ${await res.text()}`;
      } else await res.arrayBuffer();
    } catch (err) {
      this.failures++;
      this.lastFailure = (err as Error).message;
    }
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
