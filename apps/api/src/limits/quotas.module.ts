import { Module } from '@nestjs/common';
import { TenantQuotas } from '@switchboard/db';

/** One TenantQuotas (and its verdict cache) for every way a customer or a system reaches an agent. */
@Module({
  providers: [TenantQuotas],
  exports: [TenantQuotas],
})
export class QuotasModule {}
