import Fastify from 'fastify';
import { fastifyTrustProxy } from './switchboard-fastify-adapter';

// TRUST_PROXY's hop count, as the API hands it to Fastify (5.12 trusts no hop for a bare number).
async function clientAddress(trustProxy: Parameters<typeof fastifyTrustProxy>[0], forwardedFor?: string): Promise<string> {
  const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxy) });
  app.get('/', (req) => ({ ip: req.ip }));
  const res = await app.inject({ method: 'GET', url: '/', remoteAddress: '10.0.0.9', headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  await app.close();
  return (res.json() as { ip: string }).ip;
}

describe('fastifyTrustProxy', () => {
  it('with a hop count of 1, the client is the address the one proxy forwarded', async () => {
    expect(await clientAddress(1, '203.0.113.7')).toBe('203.0.113.7');
    // A client that forges a hop of its own is still seen where the proxy saw it.
    expect(await clientAddress(1, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('with 2 hops, the address the outer of two proxies saw', async () => {
    expect(await clientAddress(2, '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1');
  });

  it('off: the peer is the client, whatever it forwards', async () => {
    expect(await clientAddress(false, '203.0.113.7')).toBe('10.0.0.9');
  });

  it('a list trusts only the proxies it names', async () => {
    expect(await clientAddress(['10.0.0.0/8'], '203.0.113.7')).toBe('203.0.113.7');
    expect(await clientAddress(['192.168.0.0/16'], '203.0.113.7')).toBe('10.0.0.9');
  });
});
