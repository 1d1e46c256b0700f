import { Injectable } from '@nestjs/common';
import type { HttpToolTestResult } from '@switchboard/queue';
import Ajv, { type ErrorObject } from 'ajv';
import { PrismaService } from '@switchboard/db';
import { z } from 'zod';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { InvalidToolArgumentsError } from './http-tool-test.errors';
import { HttpToolTestQueue } from './http-tool-test.queue';
import { HttpToolsService } from './http-tools.service';

/** Time a worker gets beyond the tool's own timeout to pick the job up and answer. */
export const TEST_CALL_GRACE_MS = 5000;

export const httpToolTestBody = z.strictObject({
  /** Sample arguments, as the model would send them. */
  arguments: z.record(z.string(), z.unknown()).default({}),
});
export type HttpToolTestBody = z.infer<typeof httpToolTestBody>;

export type HttpToolTestAnswer = HttpToolTestResult & { toolId: string };

const details = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => ({ path: `arguments${e.instancePath.replace(/\//g, '.')}`, message: e.message ?? e.keyword }));

/**
 * A console test call of an HTTP tool: checks the arguments against the tool's JSON Schema here,
 * lets a worker make the call (only workers decrypt secret headers for sending, and the SSRF
 * guard lives there), waits for what came back and records the call in the audit log.
 */
@Injectable()
export class HttpToolTestCall {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });

  constructor(
    private readonly prisma: PrismaService,
    private readonly tools: HttpToolsService,
    private readonly queue: HttpToolTestQueue,
  ) {}

  async run(user: AdminUser, id: string, body: HttpToolTestBody): Promise<HttpToolTestAnswer> {
    const tool = await this.tools.find(user, id);
    const validate = this.ajv.compile(tool.parameters as object);
    if (!validate(body.arguments)) {
      throw new InvalidToolArgumentsError(this.ajv.errorsText(validate.errors, { dataVar: 'arguments' }), details(validate.errors));
    }
    const result = await this.queue.run(
      { tenantId: tool.tenantId, toolDefinitionId: tool.id, arguments: body.arguments },
      tool.timeoutMs + TEST_CALL_GRACE_MS,
    );
    // What was sent and how it went; never the response body nor any header (secret or not).
    await adminTransaction(this.prisma, user, (tx) =>
      recordAudit(tx, user, {
        action: 'tool.test',
        entityType: 'http-tool',
        entityId: tool.id,
        tenantId: tool.tenantId,
        after: { toolId: tool.toolId, arguments: body.arguments, ...(result.ok ? { status: result.status } : { error: result.error.code }), ms: result.ms },
      }),
    );
    return { toolId: tool.toolId, ...result };
  }
}
