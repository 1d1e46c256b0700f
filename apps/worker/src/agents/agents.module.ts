import { Module } from '@nestjs/common';
import { HttpToolsModule } from '../http-tools/http-tools.module';
import { ToolsModule } from '../tools/tools.module';
import { ActionsModule } from '../actions/actions.module';
import { AgentCatalog } from './agent-catalog';
import { ProviderForConfig } from './provider-for-config';
import { SecretBox } from '../secrets/secret-box';

@Module({
  imports: [ToolsModule, HttpToolsModule, ActionsModule],
  providers: [SecretBox, ProviderForConfig, AgentCatalog],
  exports: [AgentCatalog],
})
export class AgentsModule {}
