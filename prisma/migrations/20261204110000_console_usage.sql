-- migrate:up
-- Model usage of console runs (docs/conversation-tests.md "Usage"): playground turns, live
-- conversation-test runs and the live run that records a test saved from a transcript. They call
-- the agent's real provider, so they count toward the tenant's monthly quota, but they are not
-- customer traffic: kept here, per agent, day and source, apart from UsageDaily, so customer
-- counts, dashboards and the Turn table never see them. Replayed test runs call no model and
-- write nothing.
CREATE TABLE "ConsoleUsageDaily" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "agentId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" BIGINT NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cachedInputTokens" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ConsoleUsageDaily_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ConsoleUsageDaily_source_check" CHECK ("source" IN ('playground', 'conversation-test')),
    CONSTRAINT "ConsoleUsageDaily_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ConsoleUsageDaily_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ConsoleUsageDaily_tenantId_agentId_day_source_key" ON "ConsoleUsageDaily"("tenantId", "agentId", "day", "source");
CREATE INDEX "ConsoleUsageDaily_tenantId_day_idx" ON "ConsoleUsageDaily"("tenantId", "day");

ALTER TABLE "ConsoleUsageDaily" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "ConsoleUsageDaily" USING ("tenantId" = sb_current_tenant()) WITH CHECK ("tenantId" = sb_current_tenant());

-- migrate:down
DROP TABLE "ConsoleUsageDaily";
