import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ModelPrices } from './cost/model-prices';
import { PrismaService } from './prisma.service';

@Global()
@Module({})
export class DbModule {
  static forRoot(opts: { url: string; poolMax?: number }): DynamicModule {
    return {
      module: DbModule,
      // ModelPrices (the price tables' cache) is one per process, beside the client it reads with.
      providers: [{ provide: PrismaService, useFactory: () => new PrismaService(opts.url, opts.poolMax) }, ModelPrices],
      exports: [PrismaService, ModelPrices],
    };
  }
}
