import { connect } from 'node:net';
import { startInProcessApi, type InProcessApi } from './support/in-process-api';

jest.setTimeout(60_000);

// Issue #16 item 12: every error answer has the `{ error: { code, message } }` shape, also the
// ones produced before any route runs. Node's HTTP parser refuses these requests before Fastify
// sees them, so `inject` cannot send them: they go over a real socket.

let api: InProcessApi;
let port: number;

beforeAll(async () => {
  api = await startInProcessApi();
  await api.app.listen(0, '127.0.0.1');
  port = (api.fastify.server.address() as { port: number }).port;
});
afterAll(async () => {
  await api?.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `raw` bytes on a fresh connection and reads the first answer until the server closes. */
function sendRaw(raw: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const contentLength = Number(headers['content-length']);
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: Number.isFinite(contentLength) ? Buffer.from(body).subarray(0, contentLength).toString() : body });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.end(raw);
  });
}

function expectErrorShape(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String) } });
}

it('answers headers over the limit with 431 headers-too-large in the error shape', async () => {
  const answer = await sendRaw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expectErrorShape(answer, 431, 'headers-too-large');
  expect(JSON.parse(answer.body).error.message).toContain('16 KB');
});

it('answers a URL over the limit with 431 headers-too-large in the error shape', async () => {
  expectErrorShape(await sendRaw(`GET /v1/admin/agents?${'q='.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'headers-too-large');
});

it.each([
  ['a bare CR in a header', 'GET /health HTTP/1.1\r\nHost: x\rX-Evil: 1\r\n\r\n'],
  ['a doubled Content-Length', 'POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
  ['Transfer-Encoding with Content-Length', 'POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'],
  ['a NUL in a header value', 'GET /health HTTP/1.1\r\nHost: x\r\nX-Evil: a\u0000b\r\n\r\n'],
  ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
])('answers %s with 400 malformed-request in the error shape, naming the fault', async (_what, raw) => {
  const answer = await sendRaw(raw);
  expectErrorShape(answer, 400, 'malformed-request');
  expect(JSON.parse(answer.body).error.message).toMatch(/^The request is not valid HTTP\/1\.1: .+\. Nothing was processed\.$/);
});

it.each([
  ['a lone continuation byte', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d])],
  ['an overlong encoding', Buffer.from('{"a":"\xc0\xaf"}', 'latin1')],
  ['an encoded surrogate', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])],
  ['a truncated sequence', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d])],
])('answers a JSON body with %s as 400 invalid-utf8, not a Content-Length mismatch', async (_what, body) => {
  const head = `POST /v1/admin/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  const answer = await sendRaw(Buffer.concat([Buffer.from(head), body]));
  expectErrorShape(answer, 400, 'invalid-utf8');
  expect(JSON.parse(answer.body).error.message).toBe('The request body is not valid UTF-8; send JSON encoded as UTF-8.');
});

it('still answers a well-formed request on the same server', async () => {
  const answer = await sendRaw('GET /v1/admin/agents HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expectErrorShape(answer, 401, 'unauthenticated');
});
