import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { QUEUES, WEBHOOK_TEST_JOB_OPTIONS, type WebhookTestJobData, type WebhookTestResult } from '@switchboard/queue';
import { WorkerRoundTrip } from '../../common/queue/worker-round-trip';
import { ENV } from '../../config/env.module';
import { TestDeliveryFailedError, TestDeliveryTimeoutError, TestDeliveryUnavailableError } from './test-delivery.errors';

/** The API side of `{webhook-tests}`: adds a job and waits for the worker's result. */
@Injectable()
export class TestDeliveryQueue implements OnModuleDestroy {
  private readonly roundTrip: WorkerRoundTrip<WebhookTestJobData, WebhookTestResult>;

  constructor(@Inject(ENV) env: Env) {
    this.roundTrip = new WorkerRoundTrip(QUEUES.webhookTests, env, WEBHOOK_TEST_JOB_OPTIONS, {
      timeout: (ms) => new TestDeliveryTimeoutError(ms),
      unavailable: () => new TestDeliveryUnavailableError(),
      failed: (reason) => new TestDeliveryFailedError(reason),
    });
  }

  run(data: WebhookTestJobData, waitMs: number): Promise<WebhookTestResult> {
    return this.roundTrip.run('test-delivery', data, waitMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.roundTrip.close();
  }
}
