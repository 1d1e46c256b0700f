import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// What the widget's browser spec stands on: a model that streams slowly (so a reply can be cut
// in the middle), a TCP proxy in front of the API (so the network can be cut for real: open
// connections reset, new ones refused), and host pages on other origins than the API.

const listen = (server: Server | ReturnType<typeof createTcpServer>, host = '127.0.0.1') =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

export interface StreamingModel {
  baseURL: string;
  /** Requests answered so far. */
  calls: number;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat completions server: `reply(lastUserText)` word by word, one chunk
 * every `chunkMs`, in the real streaming wire format (data: lines, usage chunk, [DONE]).
 */
export async function startStreamingModel(reply: (userText: string) => string, chunkMs: number): Promise<StreamingModel> {
  const model: StreamingModel = { baseURL: '', calls: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      model.calls++;
      const request = JSON.parse(body) as { stream?: boolean; messages: { role: string; content: unknown }[] };
      const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
      const text = reply(typeof lastUser?.content === 'string' ? lastUser.content : JSON.stringify(lastUser?.content ?? ''));
      const base = { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'local-model' };
      if (!request.stream) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = text.match(/\S+\s*|\s+/g) ?? [];
      const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      let i = 0;
      const timer = setInterval(() => {
        if (i < pieces.length) {
          send({ ...base, choices: [{ index: 0, delta: { content: pieces[i++] }, finish_reason: null }] });
          return;
        }
        clearInterval(timer);
        send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        send({ ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: pieces.length, total_tokens: 3 + pieces.length } });
        res.end('data: [DONE]\n\n');
      }, chunkMs);
      res.on('close', () => clearInterval(timer));
    });
  });
  const port = await listen(server);
  model.baseURL = `http://127.0.0.1:${port}/v1`;
  model.close = () => new Promise<void>((r) => server.close(() => r()));
  return model;
}

export interface NetworkProxy {
  /** http://127.0.0.1:<port>: the API as the browser reaches it. */
  url: string;
  /** Resets every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<NetworkProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const server = createTcpServer((client) => {
    if (down) return client.resetAndDestroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    cut: () => {
      down = true;
      for (const s of sockets) s.resetAndDestroy();
    },
    restore: () => {
      down = false;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface HostSite {
  /** http://localhost:<port>: another origin than the API's 127.0.0.1. */
  origin: string;
  close(): Promise<void>;
}

/**
 * A customer's site on http://localhost:<port>: `/` is a page with the snippet under a strict
 * Content-Security-Policy (no inline script or style anywhere; scripts and connections only to
 * the API) and a stylesheet that tries to restyle every element, the widget's included.
 */
export async function startHostSite(snippet: (origin: string) => string, apiOrigin: string): Promise<HostSite> {
  const site: HostSite = { origin: '', close: async () => undefined };
  const server = createServer((req, res) => {
    if (req.url === '/site.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end('* { font-family: "Comic Sans MS", cursive !important; color: #c00 !important; } button { background: #0f0 !important; display: none !important; } body { margin: 0; background: #f4f1ea; }');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${apiOrigin}; connect-src ${apiOrigin}; style-src 'self'; img-src 'self' ${apiOrigin}`,
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Padaria Central</title><link rel="stylesheet" href="/site.css"></head>
<body><main><h1>Padaria Central</h1><p>Fresh bread every morning. Ask us anything in the chat.</p></main>
${snippet(site.origin)}</body></html>`);
  });
  const port = await listen(server, '127.0.0.1');
  site.origin = `http://localhost:${port}`;
  site.close = () => new Promise<void>((r) => server.close(() => r()));
  return site;
}
