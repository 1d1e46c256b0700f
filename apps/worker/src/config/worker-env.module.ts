import { Global, Module, type DynamicModule } from '@nestjs/common';
import { WORKER_ENV, type WorkerEnv } from './worker-env';

/** Makes the validated WorkerEnv injectable everywhere (token WORKER_ENV). */
@Global()
@Module({})
export class WorkerEnvModule {
  static forRoot(env: WorkerEnv): DynamicModule {
    return { module: WorkerEnvModule, providers: [{ provide: WORKER_ENV, useValue: env }], exports: [WORKER_ENV] };
  }
}
