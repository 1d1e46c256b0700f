import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolve } from '@switchboard/outbound';
import { guardedHttpCall, type HttpCall } from './guarded-http-call';

// A local server stands in for "the worker's own network". Names are resolved by a fake DNS
// (the `resolve` hook) so a test can make a name answer whatever a hostile DNS server would.

let server: Server;
let port: number;
let hits: string[];
let redirectTo: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (redirectTo && req.url === '/redirect') {
      res.writeHead(302, { location: redirectTo.replace('PORT', String(port)) }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"internal":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  hits = [];
  redirectTo = undefined;
});

const call = (url: string, extra: Partial<HttpCall> = {}): Promise<unknown> =>
  guardedHttpCall({
    method: 'GET',
    url,
    headers: {},
    originHeaders: {},
    timeoutMs: 2000,
    maxResponseBytes: 10_000,
    allowedHosts: new Set(),
    maxRedirects: 3,
    ...extra,
  });

const fakeDns =
  (table: Record<string, string[]>, log: string[] = []): Resolve =>
  (host, cb) => {
    log.push(host);
    cb(null, (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

describe('guardedHttpCall against private addresses', () => {
  it.each([
    'http://127.0.0.1:PORT/',
    'http://2130706433:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://0x7f.0.0.1:PORT/',
    'http://127.1:PORT/',
    'http://[::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[fc00::1]:PORT/',
    'http://[fe80::1]:PORT/',
    'http://169.254.169.254/latest/meta-data/',
  ])('refuses %s before connecting', async (url) => {
    await expect(call(url.replace('PORT', String(port)))).rejects.toMatchObject({ code: 'http-tool-address-forbidden' });
    expect(hits).toEqual([]);
  });

  it('refuses a name that resolves to a private address, in the socket lookup', async () => {
    const asked: string[] = [];
    await expect(call(`http://internal.test:${port}/`, { resolve: fakeDns({ 'internal.test': ['127.0.0.1'] }, asked) })).rejects.toThrow(
      /^refused to call internal\.test \(127\.0\.0\.1\)/,
    );
    expect(asked).toEqual(['internal.test']);
    expect(hits).toEqual([]);
  });

  it('is not fooled by DNS rebinding: the address checked is the address connected to', async () => {
    // First answer public, every later answer loopback. A guard that resolved to check and then
    // let the socket resolve again would connect to 127.0.0.1 and hit the local server.
    let asked = 0;
    const rebinding: Resolve = (_h, cb) => cb(null, [{ address: asked++ === 0 ? '192.88.98.1' : '127.0.0.1', family: 4 }]);
    await expect(call(`http://rebind.test:${port}/`, { resolve: rebinding, timeoutMs: 1500 })).rejects.toMatchObject({
      code: expect.stringMatching(/^http-tool-(network|timeout)$/),
    });
    expect(asked).toBe(1);
    expect(hits).toEqual([]);
  });

  it.each([
    ['loopback by address', 'http://127.0.0.1:PORT/secret'],
    ['loopback in decimal', 'http://2130706433:PORT/secret'],
    ['IPv6 loopback', 'http://[::1]:PORT/secret'],
    ['a name resolving to a private address', 'http://private.test:PORT/secret'],
  ])('refuses a redirect from an allowed host to %s', async (_label, target) => {
    redirectTo = target;
    const resolve = fakeDns({ 'allowed.test': ['127.0.0.1'], 'private.test': ['10.1.2.3', '127.0.0.1'] });
    await expect(call(`http://allowed.test:${port}/redirect`, { resolve, allowedHosts: new Set(['allowed.test']) })).rejects.toMatchObject({
      code: 'http-tool-address-forbidden',
    });
    expect(hits).toEqual(['/redirect']);
  });

  it('still calls an allow-listed host (the control for the tests above)', async () => {
    const resolve = fakeDns({ 'allowed.test': ['127.0.0.1'] });
    await expect(call(`http://allowed.test:${port}/ok`, { resolve, allowedHosts: new Set(['allowed.test']) })).resolves.toMatchObject({ status: 200 });
    expect(hits).toEqual(['/ok']);
  });
});
