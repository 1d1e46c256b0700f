import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import { Queue } from 'bullmq';

/**
 * Every BullMQ queue and worker of this process, connected: main logs "worker ready" only once
 * this resolves. In Postgres mode a connection's first use checks (and migrates) BullMQ's tables
 * on a checked-out client with no error listener, so a database outage during that check ended
 * the process with an unhandled 'error' after it had reported ready (the chaos run's one worker
 * that died on its own), and a failed check left that queue dead for the life of the process.
 * Awaited here, such a failure is a failed start: the process exits and its supervisor retries.
 */
@Injectable()
export class QueuesReady {
  constructor(private readonly discovery: DiscoveryService) {}

  async wait(): Promise<void> {
    const instances = this.discovery.getProviders().map((wrapper) => wrapper.instance as unknown);
    const queues = instances.filter((i): i is Queue => i instanceof Queue);
    const workers = instances.filter((i): i is WorkerHost => i instanceof WorkerHost).map((host) => host.worker);
    await Promise.all([...queues, ...workers].map((q) => q.waitUntilReady()));
  }
}

@Module({ imports: [DiscoveryModule], providers: [QueuesReady], exports: [QueuesReady] })
export class QueuesReadyModule {}
