import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { queueBackend } from '@switchboard/config';
import { Logger } from 'nestjs-pino';
import { loadWorkerEnv } from './config/worker-env';
import { QueuesReady } from './queues/queues-ready';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  // Fails fast naming the bad variable, before anything connects.
  const env = loadWorkerEnv();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(env), { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  // SIGTERM/SIGINT: the turn processor stops taking jobs and waits for running turns, then the
  // database and Redis connections close and the process exits.
  app.enableShutdownHooks();
  await app.get(QueuesReady).wait();
  logger.log(
    { msg: 'worker ready', concurrency: env.WORKER_CONCURRENCY, queuePrefix: env.QUEUE_PREFIX, backend: queueBackend(env) },
    'Worker',
  );
}

bootstrap().catch((err: unknown) => {
  // The logger may not exist yet (bad env); one JSON line on stderr, then a non-zero exit.
  const e = err as Error & { code?: string };
  process.stderr.write(JSON.stringify({ level: 'fatal', msg: 'worker failed to start', code: e.code, error: e.message }) + '\n');
  process.exit(1);
});
