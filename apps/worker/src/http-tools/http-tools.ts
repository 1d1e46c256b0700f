import { Inject, Injectable } from '@nestjs/common';
import Ajv, { type ValidateFunction } from 'ajv';
import type { AnyTool, StructuredSchema, ToolCtx, ToolResult, ToolValidationResult } from '@falai/agent';
import { PrismaService, type ToolDefinition } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { idempotencyKey } from '../tools/to-engine-tool';
import { guardedHttpCall, HttpToolCallError, type HttpCallResult } from './guarded-http-call';
import { scrubSecrets } from './scrub-secrets';

const MAX_REDIRECTS = 3;

export class HttpToolDefinitionError extends Error {
  readonly code = 'http-tool-definition-invalid';
  constructor(toolId: string, why: string) {
    super(`[HttpToolDefinitionError] HTTP tool "${toolId}": ${why}. Fix the tool's definition.`);
    this.name = 'HttpToolDefinitionError';
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/**
 * Tenants' HTTP tools (ToolDefinition rows) as engine tools: arguments checked against the
 * tool's JSON Schema before any call, sent as query parameters (GET, DELETE) or a JSON body,
 * with its plain headers and its secret headers (decrypted per call, never logged), through the
 * SSRF-guarded client, within the tool's timeout and the response size cap. What the endpoint
 * answers is what the model reads; a non-2xx status is a tool error the model reads.
 */
@Injectable()
export class HttpTools {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {
    this.allowedHosts = new Set(env.OUTBOUND_ALLOWED_HOSTS);
  }

  /** The tenant's HTTP tools among `toolIds` (ids with no definition are left out). */
  async forTenant(tenantId: string, toolIds: readonly string[]): Promise<AnyTool[]> {
    if (toolIds.length === 0) return [];
    const defs = await this.prisma.toolDefinition.findMany({ where: { tenantId, toolId: { in: [...toolIds] } } });
    return defs.map((d) => this.toTool(d));
  }

  toTool(def: ToolDefinition): AnyTool {
    const parameters = def.parameters as unknown as StructuredSchema;
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(parameters);
    } catch (err) {
      throw new HttpToolDefinitionError(def.toolId, `its parameters are not a valid JSON Schema (${(err as Error).message})`);
    }
    return {
      id: def.toolId,
      ...(def.description && { description: def.description }),
      parameters,
      isReadOnly: () => def.readOnly,
      isDestructive: () => def.destructive,
      maxResultSizeChars: this.env.HTTP_TOOL_MAX_RESULT_CHARS,
      validateInput: (input: Record<string, unknown>): ToolValidationResult =>
        validate(input) ? { valid: true } : { valid: false, error: this.ajv.errorsText(validate.errors, { dataVar: 'arguments' }) },
      handler: (args: Record<string, unknown>, ctx: ToolCtx<TurnContext>) => this.call(def, args, ctx),
    };
  }

  private async call(def: ToolDefinition, args: Record<string, unknown>, ctx: ToolCtx<TurnContext>): Promise<ToolResult> {
    const res = await this.send(def, args, idempotencyKey(def.toolId, args, ctx));
    if (res.status < 200 || res.status >= 300) {
      throw new HttpToolCallError('http-tool-status', `the endpoint answered HTTP ${res.status}: ${res.body.slice(0, 500)}`);
    }
    if (res.contentType?.includes('json')) {
      try {
        return { value: JSON.parse(res.body) as unknown };
      } catch {
        // Not the JSON it claims: the model reads the text.
      }
    }
    return { value: res.body };
  }

  /**
   * The tool's request for `args` (headers, secret headers, guard, timeout, size cap) and the
   * response, whatever its status, with secret header values scrubbed from it: turns read it
   * through `call`, console test calls as it is.
   */
  async send(def: ToolDefinition, args: Record<string, unknown>, idempotency: string): Promise<HttpCallResult> {
    const url = new URL(def.url);
    const withBody = def.method !== 'GET' && def.method !== 'DELETE';
    if (!withBody) {
      for (const [k, v] of Object.entries(args)) {
        if (v !== undefined && v !== null) url.searchParams.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
      }
    }
    const secretHeaders = def.secretHeadersEncrypted
      ? stringRecord(JSON.parse(this.secrets.decrypt(def.secretHeadersEncrypted, SECRET_CONTEXTS.httpToolHeaders(def.tenantId))))
      : {};
    const res = await guardedHttpCall({
      method: def.method,
      url: url.toString(),
      headers: {
        accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
        'user-agent': 'switchboard-http-tool',
        'idempotency-key': idempotency,
        ...(withBody && { 'content-type': 'application/json' }),
      },
      // The tenant's headers (plain and secret) go only to the tool's own origin.
      originHeaders: { ...stringRecord(def.headers), ...secretHeaders },
      body: withBody ? JSON.stringify(args) : undefined,
      timeoutMs: def.timeoutMs,
      maxResponseBytes: this.env.HTTP_TOOL_MAX_RESPONSE_BYTES,
      allowedHosts: this.allowedHosts,
      maxRedirects: MAX_REDIRECTS,
    });
    return scrubSecrets(res, Object.values(secretHeaders));
  }
}
