import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { CHANNEL_SETUP_JOB_OPTIONS, QUEUES, type ChannelSetupJobData, type ChannelSetupResult } from '@switchboard/queue';
import { ApiError } from '../common/errors';
import { WorkerRoundTrip } from '../common/queue/worker-round-trip';
import { ENV } from '../config/env.module';

/** How long the console waits for the platform's answer to setWebhook / deleteWebhook. */
export const CHANNEL_SETUP_WAIT_MS = 20_000;

class ChannelSetupUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'channel-setup-unavailable';
}

/** The API side of `{channel-setup}`: a worker (which holds the outbound guard) talks to the platform. */
@Injectable()
export class ChannelSetupQueue implements OnModuleDestroy {
  private readonly roundTrip: WorkerRoundTrip<ChannelSetupJobData, ChannelSetupResult>;

  constructor(@Inject(ENV) env: Env) {
    this.roundTrip = new WorkerRoundTrip(QUEUES.channelSetup, env, CHANNEL_SETUP_JOB_OPTIONS, {
      timeout: (ms) => new ChannelSetupUnavailableError(`No worker set the channel up at its platform within ${ms} ms. Check that a worker is running, then try again.`),
      unavailable: () => new ChannelSetupUnavailableError('The job queue did not take the channel set-up. Nothing was changed; retry in a few seconds.'),
      failed: (reason) => new ChannelSetupUnavailableError(`The worker could not set the channel up: ${reason}`),
    });
  }

  run(data: ChannelSetupJobData): Promise<ChannelSetupResult> {
    return this.roundTrip.run('channel-setup', data, CHANNEL_SETUP_WAIT_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.roundTrip.close();
  }
}
