import { request } from './http';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

describe('operations endpoints', () => {
  it('GET /health/live answers 200 ok', async () => {
    const res = await request('GET', '/health/live');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('GET /health/ready checks Postgres and Redis', async () => {
    const res = await request('GET', '/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('GET /metrics on the metrics port exposes request latency and accepted messages in Prometheus format', async () => {
    await request('GET', '/health/live');
    const res = await fetch(process.env.TEST_API_METRICS_URL!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health\/live",status_code="200"\} \d+/);
    expect(text).toContain('# TYPE switchboard_messages_accepted_total counter');
  });

  it('does not serve /metrics on the public port', async () => {
    const res = await request('GET', '/metrics');
    expect(res.status).toBe(404);
  });

  it('serves the OpenAPI document with the channel endpoints and the webhook events', async () => {
    const res = await request('GET', '/docs-json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/messages', '/v1/sessions/{sessionId}/messages']));
    // OpenAPI 3.1 for its `webhooks` section, generated from libs/webhooks (checked there in detail).
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.webhooks)).toEqual(['message.reply', 'message.fallback', 'session.handed_off', 'session.handed_back', 'webhook.test']);
    expect(res.body.webhooks['message.reply'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/MessageReplyEvent' });
    expect(res.body.components.schemas.MessageReplyEvent.properties.type).toEqual({ type: 'string', const: 'message.reply' });
    expect(Object.keys(res.body.paths)).toContain('/v1/admin/channels/{id}/test-delivery');
    const ui = await request('GET', '/docs');
    expect(ui.status).toBe(200);
  });

  it('answers an unknown route with 404 route-not-found in the error shape', async () => {
    const res = await request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'route-not-found', message: 'Cannot GET /v1/nothing-here' } });
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await request('GET', '/health/live', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc-123');
    const made = await request('GET', '/health/live');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows the console origin by CORS and exposes the list count headers', async () => {
    const res = await fetch(`${process.env.TEST_API_URL}/health/live`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Total-Count');
  });

  it('never logs the Authorization header', async () => {
    const secret = 'sb_live_thisMustNeverAppearInLogs0000';
    const res = await request('POST', '/v1/messages', { key: secret, json: { session: 's', text: 'hi' } });
    const { readFileSync } = await import('node:fs');
    // Give pino a moment to flush the request's log line.
    await new Promise((r) => setTimeout(r, 300));
    const log = readFileSync(process.env.TEST_API_LOG as string, 'utf8');
    // The request was logged (its line names it), without its headers, and the key is nowhere.
    const line = log.split('\n').find((l) => l.includes(res.headers.get('x-request-id')!) && l.includes('request completed'));
    expect(line).toContain('"url":"/v1/messages"');
    expect(line).not.toContain('authorization');
    expect(log).not.toContain(secret);
  });
});
