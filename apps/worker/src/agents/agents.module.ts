import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/tools.module';
import { AgentCatalog } from './agent-catalog';
import { ProviderForConfig } from './provider-for-config';

@Module({
  imports: [ToolsModule],
  providers: [ProviderForConfig, AgentCatalog],
  exports: [AgentCatalog],
})
export class AgentsModule {}
