-- migrate:up
-- Tables the platform API, worker and console need beyond the foundation: usage roll-ups,
-- wakes, webhook deliveries, audit log, HTTP and registered tools, provider credentials; and
-- the webhook settings of a channel.

CREATE TYPE "WakeStatus" AS ENUM ('scheduled', 'fired', 'cancelled');
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'delivered', 'failed', 'dead');
CREATE TYPE "HttpMethod" AS ENUM ('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
CREATE TYPE "ProviderKind" AS ENUM ('openai', 'gemini', 'openai-compatible');

ALTER TABLE "Channel" ADD COLUMN "webhookUrl" TEXT;
ALTER TABLE "Channel" ADD COLUMN "webhookSecretEncrypted" TEXT;

CREATE TABLE "UsageDaily" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "deferredTurns" INTEGER NOT NULL DEFAULT 0,
    "failedTurns" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" BIGINT NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cachedInputTokens" BIGINT NOT NULL DEFAULT 0,
    "queueWaitMs" BIGINT NOT NULL DEFAULT 0,
    "modelMs" BIGINT NOT NULL DEFAULT 0,
    "toolsMs" BIGINT NOT NULL DEFAULT 0,
    "commitMs" BIGINT NOT NULL DEFAULT 0,
    "totalMs" BIGINT NOT NULL DEFAULT 0,
    "latencyBuckets" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UsageDaily_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "UsageDaily_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UsageDaily_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "UsageDaily_tenantId_agentId_day_key" ON "UsageDaily"("tenantId", "agentId", "day");
CREATE INDEX "UsageDaily_tenantId_day_idx" ON "UsageDaily"("tenantId", "day");

CREATE TABLE "UsageOutcomeDaily" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "code" TEXT NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "UsageOutcomeDaily_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "UsageOutcomeDaily_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UsageOutcomeDaily_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "UsageOutcomeDaily_tenantId_agentId_day_code_key" ON "UsageOutcomeDaily"("tenantId", "agentId", "day", "code");
CREATE INDEX "UsageOutcomeDaily_tenantId_day_idx" ON "UsageOutcomeDaily"("tenantId", "day");

CREATE TABLE "Wake" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "status" "WakeStatus" NOT NULL DEFAULT 'scheduled',
    "payload" JSONB,
    "firedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Wake_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Wake_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Wake_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Wake_sessionId_key_key" ON "Wake"("sessionId", "key");
CREATE INDEX "Wake_status_dueAt_idx" ON "Wake"("status", "dueAt");
CREATE INDEX "Wake_tenantId_idx" ON "Wake"("tenantId");

CREATE TABLE "Delivery" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "messageId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Delivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Delivery_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Delivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Delivery_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Delivery_messageId_key" ON "Delivery"("messageId");
CREATE INDEX "Delivery_status_nextAttemptAt_idx" ON "Delivery"("status", "nextAttemptAt");
CREATE INDEX "Delivery_tenantId_createdAt_idx" ON "Delivery"("tenantId", "createdAt");
CREATE INDEX "Delivery_channelId_idx" ON "Delivery"("channelId");

CREATE TABLE "AuditLog" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID,
    "actorUserId" UUID,
    "actorType" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "AuditLog_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AuditLog_actorUserId_fkey" FOREIGN KEY ("actorUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "AuditLog_tenantId_createdAt_idx" ON "AuditLog"("tenantId", "createdAt");
CREATE INDEX "AuditLog_entityType_entityId_idx" ON "AuditLog"("entityType", "entityId");
CREATE INDEX "AuditLog_actorUserId_idx" ON "AuditLog"("actorUserId");

CREATE TABLE "ToolDefinition" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "toolId" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "method" "HttpMethod" NOT NULL DEFAULT 'POST',
    "parameters" JSONB NOT NULL DEFAULT '{"type":"object","properties":{}}',
    "headers" JSONB NOT NULL DEFAULT '{}',
    "secretHeadersEncrypted" TEXT,
    "timeoutMs" INTEGER NOT NULL DEFAULT 10000,
    "readOnly" BOOLEAN NOT NULL DEFAULT false,
    "destructive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ToolDefinition_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ToolDefinition_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ToolDefinition_tenantId_toolId_key" ON "ToolDefinition"("tenantId", "toolId");

CREATE TABLE "RegisteredTool" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "toolId" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parameters" JSONB,
    "readOnly" BOOLEAN NOT NULL DEFAULT false,
    "destructive" BOOLEAN NOT NULL DEFAULT false,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RegisteredTool_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "RegisteredTool_toolId_key" ON "RegisteredTool"("toolId");

CREATE TABLE "ProviderCredential" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ProviderKind" NOT NULL,
    "baseURL" TEXT,
    "secretEncrypted" TEXT NOT NULL,
    "secretLast4" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProviderCredential_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ProviderCredential_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ProviderCredential_tenantId_name_key" ON "ProviderCredential"("tenantId", "name");

-- migrate:down
DROP TABLE "ProviderCredential";
DROP TABLE "RegisteredTool";
DROP TABLE "ToolDefinition";
DROP TABLE "AuditLog";
DROP TABLE "Delivery";
DROP TABLE "Wake";
DROP TABLE "UsageOutcomeDaily";
DROP TABLE "UsageDaily";
ALTER TABLE "Channel" DROP COLUMN "webhookSecretEncrypted";
ALTER TABLE "Channel" DROP COLUMN "webhookUrl";
DROP TYPE "ProviderKind";
DROP TYPE "HttpMethod";
DROP TYPE "DeliveryStatus";
DROP TYPE "WakeStatus";
