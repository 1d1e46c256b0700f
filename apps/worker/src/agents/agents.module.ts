import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/tools.module';
import { AgentCatalog } from './agent-catalog';
import { ProviderForConfig } from './provider-for-config';
import { SecretBox } from '../secrets/secret-box';

@Module({
  imports: [ToolsModule],
  providers: [SecretBox, ProviderForConfig, AgentCatalog],
  exports: [AgentCatalog],
})
export class AgentsModule {}
