import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ProviderForConfig } from '../agents/provider-for-config';
import { ConditionsModule } from '../conditions/conditions.module';
import { HttpToolsModule } from '../http-tools/http-tools.module';
import { SecretBox } from '../secrets/secret-box';
import { ToolsModule } from '../tools/tools.module';
import { AgentRunProcessor } from './agent-run.processor';
import { RunAgentBuilder } from './run-agent-builder';

/** Console runs of an agent: the playground and conversation tests (docs/conversation-tests.md). */
@Module({
  imports: [ToolsModule, HttpToolsModule, ActionsModule, ConditionsModule],
  providers: [SecretBox, ProviderForConfig, RunAgentBuilder, AgentRunProcessor],
})
export class AgentRunsModule {}
