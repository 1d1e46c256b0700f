import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Env } from '@switchboard/config';

/** Injection token of the validated environment (see loadEnv). */
export const ENV = Symbol('ENV');

/** Makes the environment the app was created with injectable everywhere: `@Inject(ENV) env: Env`. */
@Global()
@Module({})
export class EnvModule {
  static forRoot(env: Env): DynamicModule {
    return { module: EnvModule, providers: [{ provide: ENV, useValue: env }], exports: [ENV] };
  }
}
