import { Logger } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { PrismaService } from '@switchboard/db';
import { QUEUES, type HttpToolTestJobData, type HttpToolTestResult } from '@switchboard/queue';
import { flatHeaders } from './flat-headers';
import { HttpTools } from './http-tools';

/** Response text kept for the console; the full body was already capped by the guarded client. */
export const TEST_BODY_DISPLAY_CHARS = 20_000;

/** The code and message a tool error carries (the SSRF guard's, the client's), or a generic one. */
function toolError(err: unknown): { code: string; message: string } {
  const code = (err as { code?: unknown }).code;
  return {
    code: typeof code === 'string' && code.startsWith('http-tool-') ? code : 'http-tool-error',
    message: err instanceof Error ? err.message : String(err),
  };
}

/**
 * Console test calls of HTTP tools (`{http-tool-tests}`): makes the tool's real request, secret
 * headers and SSRF guard included, and returns what came back for the API to show. A refusal,
 * timeout or network error is a result too (the tool error a model would read), not a failed job.
 */
@Processor(QUEUES.httpToolTests, { concurrency: 4 })
export class HttpToolTestProcessor extends WorkerHost {
  private readonly logger = new Logger(HttpToolTestProcessor.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly tools: HttpTools,
  ) {
    super();
  }

  async process(job: Job<HttpToolTestJobData>): Promise<HttpToolTestResult> {
    const { tenantId, toolDefinitionId } = job.data;
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const def = await this.prisma.toolDefinition.findFirst({ where: { id: toolDefinitionId, tenantId } });
    if (!def) return { ok: false, error: { code: 'http-tool-not-found', message: 'The HTTP tool was deleted before the test call ran.' }, ms: ms() };
    try {
      const res = await this.tools.send(def, job.data.arguments, `test-${job.id ?? toolDefinitionId}`);
      this.logger.log({ msg: 'http tool test call', toolId: def.toolId, tenantId, status: res.status });
      return {
        ok: true,
        status: res.status,
        headers: flatHeaders(res.headers),
        body: res.body.slice(0, TEST_BODY_DISPLAY_CHARS),
        truncated: res.body.length > TEST_BODY_DISPLAY_CHARS,
        ms: ms(),
      };
    } catch (err) {
      const error = toolError(err);
      this.logger.log({ msg: 'http tool test call failed', toolId: def.toolId, tenantId, code: error.code });
      return { ok: false, error, ms: ms() };
    }
  }
}
