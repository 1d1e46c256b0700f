import { Module } from '@nestjs/common';
import { ChannelAuthModule } from '../channel-auth/channel-auth.module';
import { WidgetModule } from '../widget/widget.module';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ChannelsController } from './channels/channels.controller';
import { ChannelAdaptersModule } from '../channel-adapters/channel-adapters.module';
import { SendTestDelivery } from './channels/test-delivery.usecase';
import { TestDeliveryQueue } from './channels/test-delivery.queue';
import { CredentialsController } from './credentials/credentials.controller';
import { HttpToolsController } from './tools/http-tools.controller';
import { HttpToolsService } from './tools/http-tools.service';
import { HttpToolTestCall } from './tools/http-tool-test.usecase';
import { HttpToolTestQueue } from './tools/http-tool-test.queue';
import { ToolsController } from './tools/tools.controller';
import { UsersController } from './users/users.controller';
import { AuditLogController } from './audit-log/audit-log.controller';
import { UsageController } from './usage/usage.controller';
import { LiveUsageController } from './live-usage/live-usage.controller';
import { FirstStepsController } from './first-steps/first-steps.controller';
import { AgentArchiveController } from './agents/agent-archive.controller';
import { UsageCostController } from './usage/usage-cost.controller';
import { AgentHealthController } from './agent-health/agent-health.controller';
import { AgentsController } from './agents/agents.controller';
import { AgentVersionsController } from './agents/agent-versions.controller';
import { PublishAgent } from './agents/publish-agent.usecase';
import { AgentLoadCheck } from './agents/load-check/agent-load-check';
import { SecretBox } from './common/secret-box';
import { AccessTokenService } from './auth/access-token.service';
import { AdminAuthGuard } from './auth/admin-auth.guard';
import { AuthController } from './auth/auth.controller';
import { LoginThrottle } from './auth/login-throttle';
import { LoginUseCase } from './auth/login.usecase';
import { AuthSessions } from './auth/auth-sessions';
import { RefreshCookie } from './auth/refresh-cookie';
import { MessagesController } from './messages/messages.controller';
import { SessionsController } from './sessions/sessions.controller';
import { StatsController } from './stats/stats.controller';
import { TenantsController } from './tenants/tenants.controller';
import { ModelPricesController } from './prices/model-prices.controller';
import { TenantModelPricesController } from './prices/tenant-model-prices.controller';
import { TurnsController } from './turns/turns.controller';
import { DeliveriesController } from './deliveries/deliveries.controller';
import { RedriveDelivery } from './deliveries/redrive-delivery.usecase';
import { DeadLettersController } from './dead-letters/dead-letters.controller';
import { TurnDeadLetters } from './dead-letters/turn-dead-letters';
import { TurnQueueReader } from './dead-letters/turn-queue-reader';
import { QueuesController } from './queues/queues.controller';
import { TenantBacklogCounter } from './queues/tenant-backlog';
import { HandBackSession } from './sessions/hand-back.usecase';
import { AgentRunsQueue } from './agent-runs/agent-runs.queue';
import { PlaygroundController } from './playground/playground.controller';
import { PlaygroundTurns } from './playground/playground.usecase';
import { ConversationTestsController } from './conversation-tests/conversation-tests.controller';
import { ConversationTests } from './conversation-tests/conversation-tests.service';
import { RunConversationTest } from './conversation-tests/run-conversation-test';
import { PublishGate } from './conversation-tests/publish-gate';
import { RestoreVersion } from './agents/restore-version.usecase';
import { QuotasModule } from '../limits/quotas.module';
import { INBOX_PROVIDERS, InboxController } from './inbox/inbox.providers';

/**
 * Console login and the admin REST the console reads (react-admin simple-REST dialect) under
 * /v1/admin. Needs PrismaService, ENV and REDIS from the global CoreModule.
 */
@Module({
  imports: [ChannelAuthModule, WidgetModule, ChannelAdaptersModule, QuotasModule],
  controllers: [
    AuthController,
    SessionsController,
    MessagesController,
    TurnsController,
    TenantsController,
    StatsController,
    AgentsController,
    AgentHealthController,
    AgentVersionsController,
    ChannelsController,
    ApiKeysController,
    CredentialsController,
    ToolsController,
    HttpToolsController,
    UsersController,
    UsageController,
    LiveUsageController,
    FirstStepsController,
    AgentArchiveController,
    UsageCostController,
    AuditLogController,
    DeliveriesController,
    DeadLettersController,
    QueuesController,
    PlaygroundController,
    ConversationTestsController,
    InboxController,
    ModelPricesController,
    TenantModelPricesController,
  ],
  providers: [AccessTokenService, AdminAuthGuard, LoginUseCase, LoginThrottle, AuthSessions, RefreshCookie, PublishAgent, AgentLoadCheck, SecretBox, HttpToolsService, HttpToolTestCall, HttpToolTestQueue,
    RedriveDelivery, TurnQueueReader, TurnDeadLetters, TenantBacklogCounter, HandBackSession, SendTestDelivery, TestDeliveryQueue,
    AgentRunsQueue, PlaygroundTurns, ConversationTests, RunConversationTest, PublishGate, RestoreVersion, ...INBOX_PROVIDERS],
  exports: [AccessTokenService, AdminAuthGuard],
})
export class AdminModule {}
