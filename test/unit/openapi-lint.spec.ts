import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OpenAPIObject } from '@nestjs/swagger';
import { offlineOpenApiDocument } from '../../apps/api/src/docs/offline-document';

// The document /docs-json serves, checked by the two tools integrators use: Redocly's linter
// with its recommended rules (redocly.yaml) and swagger-parser's validator.

const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);

let document: OpenAPIObject;
let dir: string;
let file: string;

beforeAll(async () => {
  document = await offlineOpenApiDocument();
  dir = mkdtempSync(path.join(tmpdir(), 'sb-openapi-'));
  file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the document says for an undeclared react-admin list (openapi-document.ts's fallback). */
const BARE_LIST = { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; $ref?: string }> };

function operations(): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([p, item]) => Object.entries(item as Record<string, Operation>).map(([m, op]) => [p, m, op] as [string, string, Operation]));
}

describe('the OpenAPI document', () => {
  it('passes `redocly lint` (recommended rules) with no error and no warning', async () => {
    const { stdout } = await run(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('passes swagger-parser validate', async () => {
    await expect(SwaggerParser.validate(file)).resolves.toMatchObject({ openapi: '3.1.0' });
  }, 60_000);

  it('names a credential on every operation but the open ones, and says what each one is', () => {
    const open = operations().filter(([, , op]) => !op.security?.length).map(([p, m]) => `${m} ${p}`);
    expect(open.sort()).toEqual([
      'get /health/live',
      'get /health/ready',
      'get /v1/channels/whatsapp/{channelId}',
      'post /v1/admin/auth/login',
      'post /v1/channels/{kind}/{channelId}',
      'post /v1/widget/{publicId}/sessions',
    ]);
    const schemes = document.components?.securitySchemes as Record<string, { description?: string; bearerFormat?: string }>;
    expect(Object.keys(schemes).sort()).toEqual(['channelApiKey', 'consoleAccessToken', 'consoleRefreshCookie', 'metricsToken', 'webhookSignature', 'widgetVisitorToken']);
    expect(schemes.channelApiKey.bearerFormat).toBeUndefined(); // an opaque key, not a JWT
    expect(schemes.channelApiKey.description).toContain('sb_live_');
    expect(schemes.widgetVisitorToken.description).toContain('/v1/widget/{publicId}/sessions');
  });

  it('declares every error answer with the error shape, and the answers the routes give', () => {
    for (const [p, m, op] of operations()) {
      if (p === '/metrics') continue;
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const ref = response.$ref ?? response.content?.['application/json']?.schema?.$ref;
        expect({ route: `${m} ${p} ${status}`, ref: ref?.startsWith('#/components/responses/') ? '#/components/schemas/Error' : ref }).toEqual({
          route: `${m} ${p} ${status}`,
          ref: '#/components/schemas/Error',
        });
      }
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '500']));
    }
    const post = document.paths['/v1/messages'].post as unknown as Operation;
    expect(Object.keys(post.responses)).toEqual(['200', '202', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
  });

  it('describes the streams as text/event-stream, /metrics, and one operationId per operation', () => {
    const stream = (p: string) => Object.keys((document.paths[p].get as unknown as Operation).responses['200'].content ?? {});
    expect(stream('/v1/sessions/{sessionId}/stream')).toEqual(['text/event-stream']);
    expect(stream('/v1/widget/{publicId}/stream')).toEqual(['text/event-stream']);
    expect(stream('/metrics')).toEqual(['text/plain']);
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(Boolean)).toBe(true);
  });

  it('declares the body schema of every JSON success answer (the exceptions say why they have none)', () => {
    // Success answers that are not a JSON body, so there is no JSON schema to declare.
    const NOT_JSON: Record<string, string> = {
      'post /v1/admin/auth/logout 204': 'No content.',
      'get /v1/sessions/{sessionId}/stream 200': 'Server-Sent Events (text/event-stream), described in words.',
      'get /v1/widget/{publicId}/stream 200': 'Server-Sent Events (text/event-stream), described in words.',
      'get /v1/admin/usage-cost/export 200': 'A CSV file (text/csv).',
      'get /v1/channels/whatsapp/{channelId} 200': "WhatsApp's handshake: the challenge as text/plain.",
      'get /metrics 200': 'Prometheus text format (text/plain).',
    };
    const undeclared: string[] = [];
    const notJson: string[] = [];
    for (const [p, m, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 300) continue;
        const where = `${m} ${p} ${status}`;
        const content = response.content ?? {};
        const schema = content['application/json']?.schema as Record<string, unknown> | undefined;
        if (!content['application/json']) notJson.push(where);
        // `{}` (any JSON) or the bare "a list of records with an id" stand-in are not a declaration.
        else if (!schema || Object.keys(schema).length === 0 || JSON.stringify(schema) === JSON.stringify(BARE_LIST)) undeclared.push(where);
      }
    }
    expect(undeclared).toEqual([]);
    expect(notJson.sort()).toEqual(Object.keys(NOT_JSON).sort());
  });

  it('has the same type for `seq` wherever it appears', () => {
    const types = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const props = (node as { properties?: Record<string, { type?: unknown }> }).properties;
      if (props?.seq) types.add(JSON.stringify(props.seq.type));
      Object.values(node).forEach(visit);
    };
    visit(document);
    expect([...types]).toEqual(['"string"']);
  });
});
