import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModelServer {
  /** The OpenAI-compatible base URL (`http://127.0.0.1:<port>/v1`). */
  baseURL: string;
  /** The headers of every request, in arrival order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A local OpenAI-compatible model on 127.0.0.1: every request (whatever its path) gets one
 * chat completion answering `content`, with a usage of 3 prompt tokens and `completionTokens`.
 * Keeps each request's headers, to see which key was sent.
 */
export async function startFakeModelServer(content: string, completionTokens = 1): Promise<FakeModelServer> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'local-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 3, completion_tokens: completionTokens, total_tokens: 3 + completionTokens },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    headers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
