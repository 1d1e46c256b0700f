import { Global, Module, type DynamicModule } from '@nestjs/common';
import { PrismaService } from './prisma.service';

@Global()
@Module({})
export class DbModule {
  static forRoot(opts: { url: string; poolMax?: number }): DynamicModule {
    return {
      module: DbModule,
      providers: [{ provide: PrismaService, useFactory: () => new PrismaService(opts.url, opts.poolMax) }],
      exports: [PrismaService],
    };
  }
}
