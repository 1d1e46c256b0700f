import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { AGENT_RUN_JOB_OPTIONS, QUEUES, type AgentRunJobData, type AgentRunResult } from '@switchboard/queue';
import { ApiError } from '../../common/errors';
import { WorkerRoundTrip } from '../../common/queue/worker-round-trip';
import { ENV } from '../../config/env.module';

/** How long the API waits for a playground turn or a test run (a live model may be slow). */
export const AGENT_RUN_WAIT_MS = 60_000;

export class AgentRunTimeoutError extends ApiError {
  readonly status = 504;
  readonly code = 'agent-run-timeout';
  constructor(waitedMs: number) {
    super(`No worker answered the agent run within ${waitedMs} ms. Check that a worker is running, then try again.`);
  }
}

export class AgentRunUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'queue-unavailable';
  constructor() {
    super('The job queue did not take the agent run. Nothing ran; retry in a few seconds.');
  }
}

export class AgentRunFailedError extends ApiError {
  readonly status = 502;
  readonly code = 'agent-run-failed';
  constructor(reason: string) {
    super(`The worker could not run the agent: ${reason}`);
  }
}

/** The API side of `{agent-runs}`: adds a playground turn or a test run and waits for the worker. */
@Injectable()
export class AgentRunsQueue implements OnModuleDestroy {
  private readonly roundTrip: WorkerRoundTrip<AgentRunJobData, AgentRunResult>;

  constructor(@Inject(ENV) env: Env) {
    this.roundTrip = new WorkerRoundTrip(QUEUES.agentRuns, env, AGENT_RUN_JOB_OPTIONS, {
      timeout: (ms) => new AgentRunTimeoutError(ms),
      unavailable: () => new AgentRunUnavailableError(),
      failed: (reason) => new AgentRunFailedError(reason),
    });
  }

  /** The job is named after its purpose ("playground" or "conversation-test"), as queue dashboards list it. */
  run(data: AgentRunJobData, waitMs = AGENT_RUN_WAIT_MS): Promise<AgentRunResult> {
    return this.roundTrip.run(data.purpose, data, waitMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.roundTrip.close();
  }
}
