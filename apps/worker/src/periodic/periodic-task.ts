import type { Logger } from '@nestjs/common';

/**
 * Runs a task every `intervalMs`, one run at a time (a tick that finds the last run still going
 * is skipped), without keeping the process alive. A failed run is logged as `failureMessage` and
 * the next tick tries again; `stop()` clears the timer and waits for a run in progress, so a
 * module can stop it in onModuleDestroy before the database closes.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly failureMessage: string,
    private readonly task: () => Promise<unknown>,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.task()
        .catch((err: unknown) => this.logger.error({ msg: this.failureMessage, error: (err as Error).message }))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
