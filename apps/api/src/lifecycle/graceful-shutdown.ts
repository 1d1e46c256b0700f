import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { SessionEventsSubscriber } from '../redis/session-events.subscriber';

/**
 * On SIGTERM, Nest destroys modules before it closes the HTTP server, so in-flight requests
 * would find Prisma and Redis already closed. Registered in AppModule (destroyed first), this
 * releases `?wait` requests (they answer 202 at once), then closes the server: no new
 * connections, and the requests in flight finish while every dependency is still up.
 */
@Injectable()
export class GracefulShutdown implements OnModuleDestroy {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly events: SessionEventsSubscriber,
  ) {}

  async onModuleDestroy(): Promise<void> {
    this.events.releaseWaiters();
    await this.adapterHost.httpAdapter.close();
  }
}
