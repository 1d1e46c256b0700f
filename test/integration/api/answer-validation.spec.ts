import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { takeMismatches } from '../../support/answer-validation';

// The hook every integration test runs under (test/support/answer-validation.ts), against a tiny
// API whose answers are known: a declared answer passes, an undeclared status or a body off its
// schema is a mismatch.

const document = {
  openapi: '3.1.0',
  info: { title: 'fake', version: '1' },
  paths: {
    '/v1/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
  },
  components: {
    schemas: { Thing: { type: 'object', required: ['seq'], properties: { seq: { type: 'string' } } } },
    responses: { NotFound: { description: 'no', content: { 'application/json': { schema: { type: 'object', required: ['error'] } } } } },
  },
};

const answers: Record<string, [number, unknown]> = {
  '/v1/things/good': [200, { seq: '12' }],
  '/v1/things/number-seq': [200, { seq: 12 }],
  '/v1/things/teapot': [418, { error: { code: 'teapot' } }],
  '/v1/things/missing': [404, { error: { code: 'not-found' } }],
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, body] = req.url === '/docs-json' ? [200, document] : (answers[req.url ?? ''] ?? [404, { error: {} }]);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // As startApi records the APIs it starts.
  ((globalThis as { __SB_API_ORIGINS__?: Set<string> }).__SB_API_ORIGINS__ ??= new Set()).add(base);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('answer validation', () => {
  it('accepts answers the document declares', async () => {
    expect((await fetch(`${base}/v1/things/good`)).status).toBe(200);
    expect((await fetch(`${base}/v1/things/missing`)).status).toBe(404);
    expect(takeMismatches()).toEqual([]);
  });

  it('reports a status the document does not declare', async () => {
    await fetch(`${base}/v1/things/teapot`);
    expect(takeMismatches()).toEqual(['GET /v1/things/teapot → 418: status 418 is not declared for GET /v1/things/{id} (declared: 200, 404)']);
  });

  it('reports a body that does not match its schema, naming the field', async () => {
    const res = await fetch(`${base}/v1/things/number-seq`);
    expect(await res.json()).toEqual({ seq: 12 }); // the test still reads the body
    const [problem, ...rest] = takeMismatches();
    expect(rest).toEqual([]);
    expect(problem).toContain('GET /v1/things/number-seq → 200: the body does not match the document: /seq must be string');
  });
});
