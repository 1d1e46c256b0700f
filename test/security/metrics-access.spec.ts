import { networkInterfaces } from 'node:os';
import { freePort } from '../support/api-process';
import { startInProcessApi, type InProcessApi } from './support/in-process-api';

// /metrics names every route and the platform-wide queue counts: it is served only on its own
// port, on loopback unless configured otherwise, and behind METRICS_TOKEN when one is set.

jest.setTimeout(60_000);

const TOKEN = 'metrics-token-0123456789abcdef';

/** An address of this machine that is not loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

describe('the API metrics port', () => {
  let api: InProcessApi;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    // API_METRICS_HOST left at its default.
    api = await startInProcessApi({ API_METRICS_PORT: String(port), API_METRICS_HOST: '', METRICS_TOKEN: TOKEN });
  });
  afterAll(() => api?.close());

  it('is not the public port: GET /metrics there is 404', async () => {
    const res = await api.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_request_duration_seconds');
  });

  it('listens on 127.0.0.1 by default, not on the machine’s other addresses', async () => {
    expect(api.env.API_METRICS_HOST).toBe('127.0.0.1');
    const external = externalAddress();
    if (!external) return; // a machine with loopback only has nothing else to refuse on
    await expect(fetch(`http://${external}:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toThrow();
  });

  it('answers 401 without the METRICS_TOKEN bearer or with another one, 200 with it', async () => {
    const url = `http://127.0.0.1:${port}/metrics`;
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('http_request_duration_seconds');
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: TOKEN } })).status).toBe(401);

    const ok = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('# TYPE http_request_duration_seconds histogram');
    expect((await fetch(`http://127.0.0.1:${port}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});
