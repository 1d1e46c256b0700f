import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { HTTP_TOOL_TEST_JOB_OPTIONS, QUEUES, type HttpToolTestJobData, type HttpToolTestResult } from '@switchboard/queue';
import { WorkerRoundTrip } from '../../common/queue/worker-round-trip';
import { ENV } from '../../config/env.module';
import { HttpToolTestFailedError, HttpToolTestTimeoutError, HttpToolTestUnavailableError } from './http-tool-test.errors';

/** The API side of `{http-tool-tests}`: adds a job and waits for the worker's result. */
@Injectable()
export class HttpToolTestQueue implements OnModuleDestroy {
  private readonly roundTrip: WorkerRoundTrip<HttpToolTestJobData, HttpToolTestResult>;

  constructor(@Inject(ENV) env: Env) {
    this.roundTrip = new WorkerRoundTrip(QUEUES.httpToolTests, env, HTTP_TOOL_TEST_JOB_OPTIONS, {
      timeout: (ms) => new HttpToolTestTimeoutError(ms),
      unavailable: () => new HttpToolTestUnavailableError(),
      failed: (reason) => new HttpToolTestFailedError(reason),
    });
  }

  /** Runs the test call on a worker; HttpToolTestTimeoutError when none answers within `waitMs`. */
  run(data: HttpToolTestJobData, waitMs: number): Promise<HttpToolTestResult> {
    return this.roundTrip.run('test-call', data, waitMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.roundTrip.close();
  }
}
