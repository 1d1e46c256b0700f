import { HttpMethod } from '@switchboard/db';
import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';

// What the tool routes answer (the OpenAPI document's schemas; the handlers are typed by them).

const agentRef = z.object({ id: z.uuid(), name: z.string(), tenantId: z.uuid() });

/** One tool an agent may allow: a worker code tool (shared) or a tenant's HTTP tool. */
export const toolRecord = z.object({
  id: z.string().describe('`code:<toolId>` or `http:<row id>`.'),
  kind: z.enum(['code', 'http']),
  toolId: z.string(),
  /** Null for code tools, which every tenant may use. */
  tenantId: z.uuid().nullable(),
  description: z.string(),
  parameters: storedJson.describe("The tool's JSON Schema of arguments."),
  readOnly: z.boolean(),
  destructive: z.boolean(),
  /** Agents whose draft allow-list names the tool. */
  usedBy: z.array(agentRef),
  /** HTTP tools only. */
  url: z.string().optional(),
  method: z.string().optional(),
});
export type ToolRecord = z.infer<typeof toolRecord>;

/** A tenant's HTTP tool: never its secret header values. */
export const httpToolRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  toolId: z.string(),
  description: z.string(),
  /** Credentials in a stored URL are shown masked (https://***@host/). */
  url: z.string(),
  method: z.enum(HttpMethod),
  parameters: storedJson.describe('JSON Schema of the arguments.'),
  headers: storedJson.describe('Plain headers sent with every call.'),
  timeoutMs: z.number().int(),
  readOnly: z.boolean(),
  destructive: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
  kind: z.literal('http'),
  /** Names of the secret headers; their values are write-only. */
  secretHeaderNames: z.array(z.string()),
});

/** What the test call's endpoint answered, or why it did not. */
export const httpToolTestAnswer = z.discriminatedUnion('ok', [
  z.object({ toolId: z.string(), ok: z.literal(true), status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string(), truncated: z.boolean(), ms: z.number() }),
  z.object({ toolId: z.string(), ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }), ms: z.number() }),
]);
