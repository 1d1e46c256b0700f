import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolve } from './address-guard';
import { guardedFetch } from './guarded-fetch';

// The transport of the model SDKs: every connection is checked where it is made, so a name
// that resolves to loopback (or turns into loopback after a first, public answer) is refused,
// and a redirect is handed back rather than followed.

describe('guardedFetch', () => {
  let server: Server;
  let port: number;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/redirect') return res.writeHead(302, { location: `http://127.0.0.2:${port}/ok` }).end();
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (seen.length = 0));

  /** A resolver that answers 127.0.0.1 for every name (a rebinding or a local alias). */
  const toLoopback: Resolve = (_host, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);

  it('refuses a loopback literal that is not allow-listed, without connecting', async () => {
    const f = guardedFetch({ allowedHosts: new Set(), caller: 'model providers' });
    await expect(f(`http://127.0.0.1:${port}/v1/chat/completions`)).rejects.toMatchObject({
      cause: { code: 'http-tool-address-forbidden', message: expect.stringContaining('not reachable from model providers') },
    });
    expect(seen).toHaveLength(0);
  });

  it('refuses a name whose address is loopback, checked by the socket lookup itself', async () => {
    const f = guardedFetch({ allowedHosts: new Set(), resolve: toLoopback });
    await expect(f(`http://model.example.test:${port}/v1`)).rejects.toMatchObject({ cause: { code: 'http-tool-address-forbidden' } });
    expect(seen).toHaveLength(0);
  });

  it('refuses the metadata address', async () => {
    const f = guardedFetch({ allowedHosts: new Set() });
    await expect(f('http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({ cause: { code: 'http-tool-address-forbidden' } });
  });

  it('lets an allow-listed host through, and hands a redirect back instead of following it', async () => {
    const f = guardedFetch({ allowedHosts: new Set(['127.0.0.1']) });
    const ok = await f(`http://127.0.0.1:${port}/v1`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer t' } });
    expect([ok.status, await ok.json()]).toEqual([200, { ok: true }]);
    const redirected = await f(`http://127.0.0.1:${port}/redirect`);
    expect(redirected.status).toBe(302);
    expect(seen.map((h) => h.host)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
  });
});
