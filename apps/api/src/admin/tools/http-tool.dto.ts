import Ajv from 'ajv';
import type { Prisma } from '@switchboard/db';
import { maskUrlCredentials } from '@switchboard/outbound';
import { z } from 'zod';
import { httpToolRecord } from './tool.answers';

const ajv = new Ajv({ strict: false });

/** The id the model calls: what OpenAI and Gemini accept as a function name. */
export const TOOL_ID = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** A JSON Schema object describing the arguments: `{ type: "object", ... }` that ajv accepts as a schema. */
export const parametersSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, ctx) => {
    if (schema.type !== 'object') {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON Schema object: { "type": "object", "properties": { ... } }' });
      return;
    }
    if (!ajv.validateSchema(schema)) {
      ctx.addIssue({ code: 'custom', message: `is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}` });
    }
  });

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const headerMap = z.record(z.string().regex(HEADER_NAME, 'a header name is letters, digits and !#$%&\'*+.^_`|~-'), z.string().max(4000));

const url = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

const fields = {
  description: z.string().max(2000),
  url,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  parameters: parametersSchema,
  /** Sent as given and shown back. */
  headers: headerMap,
  /** Encrypted, never shown back: only their names are. */
  secretHeaders: headerMap,
  timeoutMs: z.number().int().min(100).max(60_000),
  readOnly: z.boolean(),
  destructive: z.boolean(),
};

export const createHttpToolBody = z.strictObject({
  tenantId: z.string().optional(),
  toolId: z.string().regex(TOOL_ID, 'a tool id is a letter or _ then up to 63 letters, digits, _ or -'),
  description: fields.description.default(''),
  url: fields.url,
  method: fields.method.default('POST'),
  parameters: fields.parameters.default({ type: 'object', properties: {} }),
  headers: fields.headers.default({}),
  secretHeaders: fields.secretHeaders.default({}),
  timeoutMs: fields.timeoutMs.default(10_000),
  readOnly: fields.readOnly.default(false),
  destructive: fields.destructive.default(false),
});
export type CreateHttpToolBody = z.infer<typeof createHttpToolBody>;

// react-admin sends the record back: read-only keys (id, toolId, secretHeaderNames...) dropped.
// `secretHeaders` replaces every secret header when sent; leave it out to keep them.
export const updateHttpToolBody = z.object({
  description: fields.description.optional(),
  url: fields.url.optional(),
  method: fields.method.optional(),
  parameters: fields.parameters.optional(),
  headers: fields.headers.optional(),
  secretHeaders: fields.secretHeaders.optional(),
  timeoutMs: fields.timeoutMs.optional(),
  readOnly: fields.readOnly.optional(),
  destructive: fields.destructive.optional(),
});
export type UpdateHttpToolBody = z.infer<typeof updateHttpToolBody>;

export const httpToolColumns = {
  id: true,
  tenantId: true,
  toolId: true,
  description: true,
  url: true,
  method: true,
  parameters: true,
  headers: true,
  secretHeadersEncrypted: true,
  timeoutMs: true,
  readOnly: true,
  destructive: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type HttpToolRow = Prisma.ToolDefinitionGetPayload<{ select: typeof httpToolColumns }>;

export type HttpToolDto = z.infer<typeof httpToolRecord>;

/** `secretHeaderNames` is read from the decrypted map by the caller (names are not secret). */
export function toHttpToolDto({ secretHeadersEncrypted: _, ...row }: HttpToolRow, secretHeaderNames: string[]): HttpToolDto {
  // Saving user:pass@ is refused; one stored before that rule is shown masked (https://***@host/).
  return { ...row, url: maskUrlCredentials(row.url), kind: 'http', secretHeaderNames };
}
