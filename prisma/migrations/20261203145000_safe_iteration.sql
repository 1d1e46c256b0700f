-- migrate:up
-- Safe iteration (docs/conversation-tests.md): draft playground conversations, conversation
-- tests that gate publishing, and what each publish said about itself.
--
-- A playground conversation runs a draft (saved or unsaved) or any version on the worker without
-- a channel, a key or a Session row: its state and turns (replies, trace, usage, the model
-- replies recorded for tests) live here, apart from customer traffic, so the Turn table and the
-- usage rollups only ever count customers.
CREATE TABLE "PlaygroundSession" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "createdById" UUID,
    "target" TEXT NOT NULL,
    "state" JSONB,
    "turns" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PlaygroundSession_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "PlaygroundSession_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PlaygroundSession_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "PlaygroundSession_tenantId_createdAt_idx" ON "PlaygroundSession"("tenantId", "createdAt");
CREATE INDEX "PlaygroundSession_agentId_idx" ON "PlaygroundSession"("agentId");

-- A saved conversation of an agent: the customer's messages with per-turn expectations, and the
-- model replies recorded when it was saved (replayed so a run is deterministic and offline).
CREATE TABLE "ConversationTest" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceId" UUID,
    "recordedVersion" INTEGER,
    "mode" TEXT NOT NULL DEFAULT 'replay',
    "turns" JSONB NOT NULL,
    "recording" JSONB NOT NULL DEFAULT '[]',
    "lastRun" JSONB,
    "lastPassingReplies" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ConversationTest_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ConversationTest_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ConversationTest_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ConversationTest_tenantId_idx" ON "ConversationTest"("tenantId");
CREATE INDEX "ConversationTest_agentId_idx" ON "ConversationTest"("agentId");

-- The publisher's note, the test results the publish ran, and an owner's override reason.
ALTER TABLE "AgentVersion" ADD COLUMN "note" TEXT;
ALTER TABLE "AgentVersion" ADD COLUMN "testResults" JSONB;
ALTER TABLE "AgentVersion" ADD COLUMN "overrideReason" TEXT;
ALTER TABLE "AgentVersion" ADD COLUMN "restoredFrom" INTEGER;

ALTER TABLE "PlaygroundSession" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "PlaygroundSession" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());
ALTER TABLE "ConversationTest" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "ConversationTest" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- migrate:down
ALTER TABLE "AgentVersion" DROP COLUMN "restoredFrom";
ALTER TABLE "AgentVersion" DROP COLUMN "overrideReason";
ALTER TABLE "AgentVersion" DROP COLUMN "testResults";
ALTER TABLE "AgentVersion" DROP COLUMN "note";
DROP TABLE "ConversationTest";
DROP TABLE "PlaygroundSession";
