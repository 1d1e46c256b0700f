import type { JobsOptions } from 'bullmq';

/** A console test call of one HTTP tool, with arguments the API already checked against its schema. */
export interface HttpToolTestJobData {
  tenantId: string;
  /** The ToolDefinition row id. */
  toolDefinitionId: string;
  arguments: Record<string, unknown>;
}

/** What the endpoint answered: status, response headers and the body, cut at a display cap. */
export interface HttpToolTestResponse {
  ok: true;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when `body` was cut at the display cap. */
  truncated: boolean;
  ms: number;
}

/** The call did not get a response: the tool error the model would read (SSRF refusal, timeout, ...). */
export interface HttpToolTestFailure {
  ok: false;
  error: { code: string; message: string };
  ms: number;
}

export type HttpToolTestResult = HttpToolTestResponse | HttpToolTestFailure;

/**
 * One attempt (a test call is not retried behind the user's back), and gone from Redis soon:
 * the API reads the result while it waits, and nobody reads it after.
 */
export const HTTP_TOOL_TEST_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 300 },
  removeOnFail: { age: 300 },
} as const satisfies JobsOptions;
