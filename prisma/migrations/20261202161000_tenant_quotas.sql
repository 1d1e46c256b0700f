-- migrate:up
-- Monthly per-tenant quotas on model usage (null = unlimited). Ingest compares them with the
-- month's UsageDaily roll-up; a message over quota is stored as failed and answered 429.

ALTER TABLE "Tenant" ADD COLUMN "monthlyLlmCallQuota" BIGINT;
ALTER TABLE "Tenant" ADD COLUMN "monthlyTokenQuota" BIGINT;

-- migrate:down
ALTER TABLE "Tenant" DROP COLUMN "monthlyTokenQuota";
ALTER TABLE "Tenant" DROP COLUMN "monthlyLlmCallQuota";
